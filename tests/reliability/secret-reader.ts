// Run as another user (`nobody`) by local-attacker.test.ts: walks the given dirs as far as it is
// let in, reads every file it can, and says which held the secret. Prints one JSON line.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [secret, ...dirs] = process.argv.slice(2);
const found: string[] = [];
const readable: string[] = [];
const refused: string[] = [];

function walk(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    refused.push(dir);
    return;
  }
  for (const name of names) {
    const at = join(dir, name);
    try {
      const bytes = readFileSync(at);
      readable.push(at);
      if (bytes.includes(secret)) found.push(at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EISDIR') walk(at);
      else refused.push(at);
    }
  }
}

for (const dir of dirs) walk(dir);
process.stdout.write(`${JSON.stringify({ found, readable, refused })}\n`);
