// Per-command scans with the real watcher on real temp directories: every kind of change a
// shell makes (an edit, a new nested folder, a folder moved or removed, a chmod) is attributed
// to the command that made it exactly as a full scan attributes it, the scans look at what
// changed only, and the turn rolls back to its start.
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineFs } from '../../paths/fs.js';
import { makeSandbox, plant, who } from '../../../testkit/engine-harness.js';
import type { Engine } from '../../api.js';
import { fsTreeWatcher } from './fs-watcher.js';

const s = who();

const START = {
  'a.txt': 'a\n',
  'src/one.ts': 'one\n',
  'src/deep/two.ts': 'two\n',
  'old/x.txt': 'x\n',
  'old/sub/y.txt': 'y\n',
  'gone/z.txt': 'z\n',
  'gone/inner/w.txt': 'w\n',
  'run.sh': 'echo\n',
};

type Step = (root: string) => Promise<void>;

const STEPS: Step[] = [
  (root) => writeFile(join(root, 'a.txt'), 'A\n'),
  async (root) => {
    await mkdir(join(root, 'new/nested/deeper'), { recursive: true });
    await writeFile(join(root, 'new/top.txt'), 'top\n');
    await writeFile(join(root, 'new/nested/deeper/leaf.txt'), 'leaf\n');
  },
  (root) => rename(join(root, 'old'), join(root, 'moved')),
  async (root) => writeFile(join(root, 'moved/sub/y.txt'), 'Y\n'),
  (root) => rm(join(root, 'gone'), { recursive: true }),
  async (root) => {
    await chmod(join(root, 'run.sh'), 0o755);
    await chmod(join(root, 'src/deep'), 0o700);
  },
  async () => undefined,
  async (root) => writeFile(join(root, 'new/nested/deeper/leaf.txt'), 'LEAF\n'),
];

/** Runs each step as one command of one turn: what each command changed, the manifest, the engine. */
async function runTurn(engine: Engine, workspace: string) {
  const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'commands' });
  const changed: string[][] = [];
  for (const step of STEPS) {
    const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'step' });
    await step(workspace);
    changed.push((await engine.execEnd({ ...s, execId: execId! })).changed);
  }
  await engine.turnEnd(s);
  const manifest = engine.getManifest(turnId!);
  return {
    turnId: turnId!,
    changed,
    entries: manifest.entries.map((e) => [e.op, e.uri, e.to ?? null, e.before, e.after]),
  };
}

describe('per-command scans with the watcher', () => {
  it('attribute exactly what full scans attribute, and the turn rolls back to its start', async () => {
    const full = await makeSandbox();
    const watched = await makeSandbox();
    await plant(full.workspace, START);
    await plant(watched.workspace, START);
    const start = await watched.tree();
    let lstats = 0;
    const fs = new EngineFs({ beforeOp: (op) => void (op === 'lstat' && lstats++) });
    const plain = await full.open();
    const engine = await watched.open({ watcher: fsTreeWatcher, fs } as never);
    const expected = await runTurn(plain, full.workspace);
    const got = await runTurn(engine, watched.workspace);
    expect(got.changed).toEqual(expected.changed);
    expect(got.entries).toEqual(expected.entries);
    await engine.rollback(got.turnId, { force: true });
    expect(await watched.tree()).toEqual(start);
    expect(lstats).toBeGreaterThan(0);
  });

  it('looks only at what changed between a turn start and end', async () => {
    const sb = await makeSandbox();
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`d${i % 10}/f${i}.txt`] = `${i}\n`;
    await plant(sb.workspace, files);
    let lstats = 0;
    const fs = new EngineFs({ beforeOp: (op) => void (op === 'lstat' && lstats++) });
    const engine = await sb.open({ watcher: fsTreeWatcher, fs } as never);
    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'one edit' });
    const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'edit' });
    lstats = 0;
    await writeFile(join(sb.workspace, 'd3/f3.txt'), 'three\n');
    const end = await engine.execEnd({ ...s, execId: execId! });
    expect(end.changed).toEqual(['workspace:/d3/f3.txt']);
    // The folder on its way and the file: nowhere near the 310 paths of the tree.
    expect(lstats).toBeLessThan(10);
    lstats = 0;
    const idle = await engine.exec({ ...s, tool: 'Bash', command: 'true' });
    await engine.execEnd({ ...s, execId: idle.execId! });
    expect(lstats).toBe(0);
    await engine.turnEnd(s);
  });
});
