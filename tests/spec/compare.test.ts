// Two points side by side: each path's state at the end of one turn against the end of another,
// across the sessions of a workspace, checked against `git diff` on a replayed real history.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { applyThroughEngine } from '../../bench/history/apply.js';
import { checkoutTree, gitIn, loadHistory, SHARED_DATA_DIR } from '../../bench/history/source.js';
import type { Engine } from '../../server/engine/api.js';
import { expectCode, makeSandbox, plant, runTurn, who, ws, type Sandbox } from '../../server/testkit/engine-harness.js';

let sandbox: Sandbox;
let engine: Engine;

beforeEach(async () => {
  sandbox = await makeSandbox();
});

describe('compare', () => {
  it('lists each path that differs between the ends of two turns, any session, in either order', async () => {
    await plant(sandbox.workspace, { 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    engine = await sandbox.open();
    const one = await runTurn(engine, () => engine.storage.writeFile(ws('a.txt'), 'a1\n', who('s1')), {
      sessionId: 's1',
    });
    const two = await runTurn(
      engine,
      async () => {
        await engine.storage.writeFile(ws('b.txt'), 'b1\n', who('s2'));
        await engine.storage.writeFile(ws('c.txt'), 'c1\n', who('s2'));
      },
      { sessionId: 's2' },
    );
    const three = await runTurn(
      engine,
      async () => {
        await engine.storage.writeFile(ws('a.txt'), 'a2\n', who('s1'));
        await engine.storage.writeFile(ws('c.txt'), 'c0\n', who('s1'));
        await engine.storage.delete(ws('c.txt'), who('s1'));
      },
      { sessionId: 's1' },
    );
    const forward = engine.compare(one, three);
    expect(forward.files.map((f) => [f.uri, f.change])).toEqual([
      [ws('a.txt'), 'modified'],
      [ws('b.txt'), 'modified'],
    ]);
    const backward = engine.compare(three, one);
    expect(backward.files.find((f) => f.uri === ws('a.txt'))).toEqual({
      ...forward.files[0],
      before: forward.files[0].after,
      after: forward.files[0].before,
    });
    expect(engine.compare(two, two).files).toEqual([]);
    const diff = await engine.compareDiff(one, three, ws('a.txt'));
    expect([diff.before.text, diff.after.text]).toEqual(['a1\n', 'a2\n']);
    await expectCode(engine.compareDiff(one, three, ws('c.txt')), 'FILE_NOT_FOUND');
    await expectCode(
      Promise.resolve().then(() => engine.compare(one, 't_nope')),
      'TURN_NOT_FOUND',
    );
  });

  const bundle = join(SHARED_DATA_DIR, 'commander.js.bundle');
  it.skipIf(!existsSync(bundle))(
    'equals git diff between the two trees on a replayed history',
    async () => {
      const history = await loadHistory(
        { bundle, base: '8b8d6e663dbebf2b8794d432f2ae94e53b7164ea', commits: 14, turns: 14 },
        join(sandbox.base, 'source.git'),
      );
      await checkoutTree(history!.gitDir, history!.base, sandbox.workspace);
      engine = await sandbox.open();
      const turnIds: string[] = [];
      for (const turn of history!.turns) {
        turnIds.push(await applyThroughEngine(engine, sandbox.workspace, 'history', turn));
        await engine.turnEnd({ sessionId: 'history' });
      }
      const git = gitIn(history!.gitDir);
      const sha = (commit: string, rel: string) =>
        createHash('sha256')
          .update(execFileSync('git', ['--git-dir', history!.gitDir, 'show', `${commit}:${rel}`]))
          .digest('hex');
      for (const [a, b] of [
        [0, 6],
        [2, 13],
        [12, 4],
      ]) {
        const [ca, cb] = [history!.turns[a].commit, history!.turns[b].commit];
        const changed = (await git('diff', '--name-only', '--no-renames', '-z', ca, cb))
          .split('\0')
          .filter(Boolean)
          .sort();
        const files = engine
          .compare(turnIds[a], turnIds[b])
          .files.filter((f) => f.before?.type !== 'dir' && f.after?.type !== 'dir');
        expect(
          files.map((f) => f.uri),
          `compare #${a + 1}..#${b + 1}`,
        ).toEqual(changed.map(ws));
        for (const f of files) {
          const rel = f.uri.slice('workspace:/'.length);
          if (f.before?.type === 'file') expect(f.before.hash, `${rel} at #${a + 1}`).toBe(sha(ca, rel));
          if (f.after?.type === 'file') expect(f.after.hash, `${rel} at #${b + 1}`).toBe(sha(cb, rel));
        }
      }
    },
    120_000,
  );
});
