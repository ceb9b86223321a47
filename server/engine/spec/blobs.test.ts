// Kept contents are verified against their hash before they are written back: a damaged or
// missing blob makes that path UNRESTORABLE (listed, never written), the rest still rolls back.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../api.js';
import { makeSandbox, plant, runTurn, who, ws, type Sandbox } from './harness.testutil.js';

let sandbox: Sandbox;
let engine: Engine;
const s = who();

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { a: 'a0 kept as a blob\n', b: 'b0\n' });
  engine = await sandbox.open();
});

/** The blob file of `hash` in the store's `blobs/` (DESIGN.md: `blobs/ab/cdef…`), once written (after the turn). */
async function blobFile(hash: string): Promise<string> {
  await engine.settled();
  const root = join(sandbox.dataDir, 'store', 'blobs');
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const match = entries.find((e) => e.isFile() && (e.name.startsWith(hash.slice(2)) || e.name.startsWith(hash)));
  if (!match) throw new Error(`no blob file for ${hash} under ${root}`);
  return join(match.parentPath, match.name);
}

async function turnChangingA(): Promise<{ turnId: string; hash: string }> {
  const turnId = await runTurn(engine, async () => {
    await engine.storage.writeFile(ws('a'), 'a1\n', s);
    await engine.storage.writeFile(ws('b'), 'b1\n', s);
  });
  const before = engine.getManifest(turnId).files.find((f) => f.uri === ws('a'))?.before;
  if (before?.type !== 'file') throw new Error('a was not kept as a file');
  return { turnId, hash: before.hash };
}

describe('blob verification', () => {
  it.each([
    ['damaged', (path: string) => writeFile(path, 'not what was kept')],
    ['missing', (path: string) => rm(path)],
  ])('a %s blob is UNRESTORABLE: listed, never written; the other paths still roll back', async (label, damage) => {
    const { turnId, hash } = await turnChangingA();
    await damage(await blobFile(hash));

    if (label === 'missing') {
      // A missing blob is known before anything is written; a damaged one when it is read back.
      const plan = await engine.preview(turnId);
      expect(plan.unrestorable).toEqual([{ uri: ws('a'), code: 'UNRESTORABLE' }]);
    }

    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ uri: ws('a'), code: 'UNRESTORABLE' })]);
    expect(result.restored).toEqual([ws('b')]);
    expect(await readFile(join(sandbox.workspace, 'a'), 'utf8')).toBe('a1\n');
    expect(await readFile(join(sandbox.workspace, 'b'), 'utf8')).toBe('b0\n');
  });
});
