// Kept contents are verified against their hash before they are written back: a damaged or
// missing blob makes that path UNRESTORABLE (listed, never written), the rest still rolls back.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { damageContent } from '../../server/testkit/contents.js';
import { makeSandbox, plant, runTurn, who, ws, type Sandbox } from '../../server/testkit/engine-harness.js';

let sandbox: Sandbox;
let engine: Engine;
const s = who();

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { a: 'a0 kept as a blob\n', b: 'b0\n' });
  engine = await sandbox.open();
});

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
    ['damaged', 'overwrite'],
    ['missing', 'remove'],
  ] as const)(
    'a %s blob is UNRESTORABLE: listed, never written; the other paths still roll back',
    async (_label, how) => {
      const { turnId, hash } = await turnChangingA();
      await engine.settled();
      damageContent(sandbox.dataDir, hash, how);

      // Known before anything is written: preview verifies what it would restore.
      const plan = await engine.preview(turnId);
      expect(plan.unrestorable).toEqual([{ uri: ws('a'), code: 'UNRESTORABLE' }]);

      const result = await engine.rollback(turnId);
      expect(result.ok).toBe(false);
      expect(result.errors).toEqual([expect.objectContaining({ uri: ws('a'), code: 'UNRESTORABLE' })]);
      expect(result.restored).toEqual([ws('b')]);
      expect(await readFile(join(sandbox.workspace, 'a'), 'utf8')).toBe('a1\n');
      expect(await readFile(join(sandbox.workspace, 'b'), 'utf8')).toBe('b0\n');
    },
  );
});
