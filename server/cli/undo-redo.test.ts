// Property: any sequence of `turnback undo --yes` and `turnback redo --yes` leaves the workspace
// exactly as a stack model says: undo takes back the latest agent turn not undone, redo the latest
// undo not taken back; with nothing to undo or redo the command exits 1 and changes nothing.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { treeAsText } from '../testkit/tree.js';
import { agentTurn } from './test/agent-turn.js';
import { startRealService, type TestService } from './test/real-service.js';
import { runTerminal } from './test/run-terminal.js';

const TURNS = 3;
let base: string;
let service: TestService;
let runs = 0;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-undo-redo-')));
  service = await startRealService(base);
}, 40_000);

afterAll(async () => {
  await service?.close();
  await rm(base, { recursive: true, force: true });
});

/** Turn k creates new-k, rewrites base-k and deletes gone-k: turns touch disjoint paths, so any subset can be undone. */
async function recordTurns(workspace: string, sessionId: string): Promise<Record<string, string>[]> {
  for (let k = 1; k <= TURNS; k++) {
    await writeFile(path.join(workspace, `base-${k}.txt`), `base ${k}\n`, { mode: 0o640 });
    await writeFile(path.join(workspace, `gone-${k}.txt`), `gone ${k}\n`);
  }
  const trees = [await treeAsText(workspace)];
  for (let k = 1; k <= TURNS; k++) {
    await agentTurn(service, workspace, sessionId, `Turn ${k}`, {
      [`new-${k}.txt`]: `new ${k}\n`,
      [`base-${k}.txt`]: `changed ${k}\n`,
      [`gone-${k}.txt`]: null,
    });
    trees.push(await treeAsText(workspace));
  }
  return trees;
}

/** The tree with the undone turns' paths as before them and the others as after them. */
function expectedTree(trees: Record<string, string>[], undone: Set<number>): Record<string, string> {
  const tree: Record<string, string> = {};
  for (let k = 1; k <= TURNS; k++) {
    const source = undone.has(k) ? trees[0] : trees[TURNS];
    for (const name of [`new-${k}.txt`, `base-${k}.txt`, `gone-${k}.txt`])
      if (name in source) tree[name] = source[name];
  }
  return tree;
}

it('undo and redo in any order match the stack model, tree for tree', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.constantFrom<'undo' | 'redo'>('undo', 'redo'), { minLength: 1, maxLength: 7 }),
      async (commands) => {
        const workspace = path.join(base, `workspace-${++runs}`);
        await mkdir(workspace);
        const trees = await recordTurns(workspace, `session-undo-redo-${runs}`);
        const undone = new Set<number>();
        const undos: number[] = [];
        for (const command of commands) {
          const ran = await runTerminal(command, ['--yes'], { cwd: workspace, env: service.env });
          if (command === 'undo') {
            const latest = [...Array(TURNS).keys()].map((i) => TURNS - i).find((k) => !undone.has(k));
            expect(ran.code, ran.stderr).toBe(latest === undefined ? 1 : 0);
            if (latest !== undefined) {
              undone.add(latest);
              undos.push(latest);
            }
          } else {
            const taken = undos.pop();
            expect(ran.code, ran.stderr).toBe(taken === undefined ? 1 : 0);
            if (taken !== undefined) undone.delete(taken);
          }
          expect(await treeAsText(workspace)).toEqual(expectedTree(trees, undone));
        }
      },
    ),
    { numRuns: 12 },
  );
}, 180_000);
