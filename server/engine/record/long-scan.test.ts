// A command that rewrites many files: its after scan gives the event loop turns while it works
// (other workspaces' hooks and the service's health are served meanwhile), and the contents it
// stores ahead of its record are held from a sweep that runs in one of those turns: the next
// command's undo puts them back.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeSandbox, openEngineOn, type Sandbox } from '../../testkit/sandbox.js';
import { snapshotTree } from '../../testkit/tree.js';
import { diffTrees } from '../../testkit/tree-diff.js';

/** More than a scan reads between two of its stores ahead (exec.ts AHEAD_ENTRIES). */
const FILES = 16_000;
const FOLDERS = 160;
/** Sessions cleared one at a time while the after scan runs: each clear sweeps unreferenced contents. */
const SWEEPERS = 400;

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox({}, { prefix: 'long-scan' });
});
afterEach(async () => {
  await box.cleanup();
});

async function writeAll(text: (d: number, f: number) => string): Promise<void> {
  const perFolder = FILES / FOLDERS;
  for (let d = 0; d < FOLDERS; d++) {
    const dir = join(box.workspace, `d${d}`);
    await mkdir(dir, { recursive: true });
    await Promise.all(Array.from({ length: perFolder }, (_, f) => writeFile(join(dir, `f${f}.txt`), text(d, f))));
  }
}

it('yields to the event loop during a long after scan, and a sweep meanwhile keeps what it stored ahead', async () => {
  await writeAll((d, f) => `before ${d}/${f}\n`);
  const engine = await openEngineOn(box);
  try {
    for (let i = 0; i < SWEEPERS; i++)
      await engine.input({ sessionId: `old-${i}`, platform: 'webui', sessionType: 'chat', content: 'old' });
    await engine.input({ sessionId: 's1', platform: 'webui', sessionType: 'chat', content: 'rewrite everything' });
    const { execId } = await engine.exec({ sessionId: 's1', tool: 'Bash', command: 'rewrite' });
    await writeAll((d, f) => `after ${d}/${f}\n`);
    const after = await snapshotTree(box.workspace);

    let turns = 0;
    let ended = false;
    const clears: Promise<void>[] = [];
    const tick = () => {
      if (ended) return;
      if (turns < SWEEPERS) clears.push(engine.clearSession(`old-${turns}`));
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const { changed } = await engine.execEnd({ sessionId: 's1', execId: execId! }).finally(() => {
      ended = true;
    });
    await Promise.all(clears);

    expect(changed.length).toBe(FILES);
    // Unsliced, the scan of 16,000 reads answers in a handful of loop turns.
    expect(turns).toBeGreaterThan(40);
    // The next command rewrites them again: its before-states are the contents stored ahead.
    const second = await engine.exec({ sessionId: 's1', tool: 'Bash', command: 'rewrite again' });
    await writeAll((d, f) => `third ${d}/${f}\n`);
    await engine.execEnd({ sessionId: 's1', execId: second.execId! });
    const { turnId } = await engine.turnEnd({ sessionId: 's1' });
    const undo = await engine.rollback(turnId!, { steps: [2] });
    expect(undo.errors.slice(0, 5)).toEqual([]);
    expect(diffTrees(after, await snapshotTree(box.workspace)).slice(0, 5)).toEqual([]);
  } finally {
    await engine.close();
  }
}, 180_000);
