#!/usr/bin/env node
// The turnback command. It runs the compiled server in build/ (made by `npm run build`), so
// nothing at run time needs TypeScript tooling.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../build/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write('turnback: build/ is missing: run npm run build first\n');
  process.exit(2);
}
await import(entry.href);
