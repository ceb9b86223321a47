// Files of the state dir that hold secrets or the service's own state: written whole (a temp
// file renamed over the old one) and readable by their owner only.
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function writePrivateFile(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode: 0o600 });
  // A umask cannot widen it, but a temp file left by an earlier run could be wider.
  chmodSync(temp, 0o600);
  renameSync(temp, file);
}
