// A process for the migration's crash test to SIGKILL: opens the store (which migrates it),
// saying so on stdout before and after.
// Usage: node --import tsx migrate-child.ts <store file>
import { Store } from './store.js';

process.stdout.write('opening\n');
const store = new Store(process.argv[2]);
process.stdout.write('migrated\n');
store.close();
