// What every host's real-CLI scenario starts from: the same small project, so each suite's
// turns (a helper added, util.ts switched to release by sed, scratch.txt removed, old.md moved)
// read alike, and the name in NFD the suites that edit it share.
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A name in NFD (e + combining acute): on Linux another file than its NFC twin. */
export const NFD_NOTE = 'docs/cafe\u0301-nfd.txt';

/** src/app.ts and src/util.ts, docs/old.md, scratch.txt and an executable run.sh. */
export async function setUpProject(ws: string): Promise<void> {
  await mkdir(join(ws, 'src'));
  await mkdir(join(ws, 'docs'));
  await writeFile(join(ws, 'src', 'app.ts'), 'export const greeting = "hello";\n');
  await writeFile(join(ws, 'src', 'util.ts'), 'export const mode = "debug";\nexport const level = 1;\n');
  await writeFile(join(ws, 'docs', 'old.md'), '# Old\n');
  await writeFile(join(ws, 'scratch.txt'), 'temporary\n');
  await writeFile(join(ws, 'run.sh'), '#!/bin/sh\necho run\n');
  await chmod(join(ws, 'run.sh'), 0o755);
}
