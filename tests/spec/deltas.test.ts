// Delta chains through the engine: versions of a file kept as deltas of the ones they replaced
// still roll back and rewind byte for byte; a pruned session's contents that a kept session's
// contents were deltas of go, and the kept turns still roll back exactly; a damaged base makes
// the paths that need it UNRESTORABLE, never wrong bytes.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { damageContent, storedEncoding } from '../../server/testkit/contents.js';
import { makeSandbox, plant, runTurn, type Sandbox, ws } from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';
import { type Tree } from '../../server/testkit/tree.js';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await makeSandbox();
});

const lines = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `export const ${tag}${i} = ${(i * 7919) % 10007};\n`).join('');
/** Version k of the file: the same long text with a few lines changed. */
const version = (k: number) => lines(400, 'value').replace(`value${k} =`, `changed${k} =`) + `// version ${k}\n`;

async function editTurns(
  engine: Engine,
  sessionId: string,
  from: number,
  to: number,
): Promise<{ turns: string[]; trees: Tree[] }> {
  const turns: string[] = [];
  const trees: Tree[] = [await sandbox.tree()];
  for (let k = from; k <= to; k++) {
    turns.push(
      await runTurn(
        engine,
        async () => {
          await engine.storage.writeFile(ws('src/app.ts'), version(k), { sessionId });
          await engine.storage.writeFile(ws(`notes/n${k % 3}.md`), `note ${k}\n${lines(50, `n${k}_`)}`, { sessionId });
        },
        { sessionId },
      ),
    );
    await engine.settled();
    trees.push(await sandbox.tree());
  }
  return { turns, trees };
}

function beforeHash(engine: Engine, turnId: string, uri: string): string {
  const before = engine.getManifest(turnId).files.find((f) => f.uri === uri)?.before;
  if (before?.type !== 'file') throw new Error(`${uri} had no file before ${turnId}`);
  return before.hash;
}

describe('delta chains through the engine', () => {
  it('many versions kept as deltas roll back newest first and rewind to the start, byte for byte', async () => {
    await plant(sandbox.workspace, { 'src/app.ts': version(0) });
    const engine = await sandbox.open();
    const { turns, trees } = await editTurns(engine, 's1', 1, 12);
    const deep = storedEncoding(sandbox.dataDir, beforeHash(engine, turns[11], ws('src/app.ts')));
    expect(deep).toMatchObject({ codec: 'zstd-delta' });
    expect(deep!.depth).toBeGreaterThan(5);
    for (let i = turns.length - 1; i >= 8; i--) {
      expect((await engine.rollback(turns[i])).errors).toEqual([]);
      assertSameTree(trees[i], await sandbox.tree(), `after rolling back turn ${i + 1}`);
    }
    const rewound = await engine.rewind('s1', { toTurnId: turns[0] });
    expect(rewound.errors).toEqual([]);
    assertSameTree(trees[0], await sandbox.tree(), 'after the rewind');
  });

  it('a pruned session took the bases of a kept session’s contents: the kept turn still rolls back exactly', async () => {
    await plant(sandbox.workspace, { 'src/app.ts': version(0) });
    // A clock the test moves: a session active in the last day is never pruned.
    let now = Date.UTC(2026, 0, 1);
    const engine = await sandbox.open({ keepSessions: 1, now: () => now } as never);
    const { trees } = await editTurns(engine, 'old', 1, 6);
    now += 2 * 86_400_000;
    const kept = await runTurn(
      engine,
      () => engine.storage.writeFile(ws('src/app.ts'), version(7), { sessionId: 'new' }),
      { sessionId: 'new' },
    );
    expect(engine.listSessions().map((s) => s.sessionId)).toEqual(['new']);
    await engine.settled();
    // version 6 (the kept turn's before) was a delta of version 5, which went with the old session.
    expect(storedEncoding(sandbox.dataDir, beforeHash(engine, kept, ws('src/app.ts')))).toMatchObject({
      depth: 0,
      base: null,
    });
    expect(await engine.rollback(kept)).toMatchObject({ ok: true, errors: [] });
    expect(await readFile(join(sandbox.workspace, 'src/app.ts'), 'utf8')).toBe(version(6));
    assertSameTree(trees[6], await sandbox.tree(), 'after rolling back the kept turn');
  });

  it('a damaged base: the path that needs it is UNRESTORABLE (listed, never written), the others roll back', async () => {
    await plant(sandbox.workspace, { 'src/app.ts': version(0) });
    const engine = await sandbox.open();
    const { turns } = await editTurns(engine, 's1', 1, 5);
    const target = beforeHash(engine, turns[4], ws('src/app.ts'));
    const base = storedEncoding(sandbox.dataDir, target)!.base!;
    expect(base).toBe(beforeHash(engine, turns[3], ws('src/app.ts')));
    damageContent(sandbox.dataDir, base, 'overwrite');
    const plan = await engine.preview(turns[4]);
    expect(plan.unrestorable).toEqual([{ uri: ws('src/app.ts'), code: 'UNRESTORABLE' }]);
    const result = await engine.rollback(turns[4]);
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ uri: ws('src/app.ts'), code: 'UNRESTORABLE' })]);
    expect(await readFile(join(sandbox.workspace, 'src/app.ts'), 'utf8')).toBe(version(5));
    expect(result.restored).toEqual([ws('notes/n2.md')]);
  });
});
