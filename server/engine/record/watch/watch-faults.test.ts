// The watcher is never trusted alone: whatever it drops, delays, names twice, or when it dies
// mid-turn or overflows, every change of the turn is in the turn (the turn end's full scan, and
// a before scan handing what it finds to the command before it), only which command a change
// is attributed to may move, and the rollback brings back the turn's start.
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../api.js';
import { makeSandbox, plant, who } from '../../../testkit/engine-harness.js';
import { type Faults, faultyFactory, type FaultyWatcher } from './watch-faults.testutil.js';

const s = who();

const START = { 'a.txt': 'a\n', 'lib/b.txt': 'b\n', 'lib/deep/c.txt': 'c\n', 'old/d.txt': 'd\n', 'tmp/e.txt': 'e\n' };

const COMMANDS: ((root: string) => Promise<void>)[] = [
  (root) => writeFile(join(root, 'a.txt'), 'A\n'),
  async (root) => {
    await mkdir(join(root, 'made/inner'), { recursive: true });
    for (let i = 0; i < 12; i++) await writeFile(join(root, `made/inner/n${i}.txt`), `${i}\n`);
  },
  (root) => rename(join(root, 'old'), join(root, 'renamed')),
  async (root) => {
    await rm(join(root, 'tmp'), { recursive: true });
    await writeFile(join(root, 'lib/deep/c.txt'), 'C\n');
  },
  (root) => writeFile(join(root, 'made/inner/n3.txt'), 'three\n'),
];

async function runTurn(engine: Engine, root: string, between?: (i: number) => Promise<void>) {
  const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'commands' });
  for (const [i, command] of COMMANDS.entries()) {
    const { execId } = await engine.exec({ ...s, tool: 'Bash', command: `c${i}` });
    await command(root);
    await engine.execEnd({ ...s, execId: execId! });
    await between?.(i);
  }
  await engine.turnEnd(s);
  const manifest = engine.getManifest(turnId!);
  return {
    turnId: turnId!,
    paths: manifest.files.map((f) => f.uri).sort(),
    byCommand: manifest.turn.execCommands.map((c) => c.changed),
  };
}

/** The turn as full scans record it. */
async function reference() {
  const sb = await makeSandbox();
  await plant(sb.workspace, START);
  return runTurn(await sb.open(), sb.workspace);
}

async function withFaults(faults: Faults, overflow?: number, between?: (w: FaultyWatcher, i: number) => Promise<void>) {
  const sb = await makeSandbox();
  await plant(sb.workspace, START);
  const start = await sb.tree();
  const factory = faultyFactory(faults, overflow);
  const engine = await sb.open({ watcher: factory.make } as never);
  const turn = await runTurn(engine, sb.workspace, between && ((i) => between(factory.made[0]!, i)));
  await engine.rollback(turn.turnId, { force: true });
  expect(await sb.tree(), 'the rollback brings back the start').toEqual(start);
  return { ...turn, watcher: factory.made[0]! };
}

const unique = (lists: (string[] | null)[]) => [...new Set(lists.flatMap((l) => l ?? []))].sort();
const half = (p: { abs: string }) => createHash('sha1').update(p.abs).digest()[0]! % 2 === 0;

describe('the watcher under faults', () => {
  it('loses no change of the turn when it drops every event, some events, or hands them late', async () => {
    const expected = await reference();
    for (const faults of [{ drop: () => true }, { drop: half }, { delayTakes: 1 }, { delayTakes: 3 }]) {
      const got = await withFaults(faults);
      expect(got.paths, JSON.stringify(Object.keys(faults))).toEqual(expected.paths);
      // Every changed path is some command's; which one may move (one command may then hold two changes of a path).
      expect(unique(got.byCommand)).toEqual(unique(expected.byCommand));
    }
  });

  it('attributes exactly as full scans do when it names paths twice', async () => {
    const expected = await reference();
    const got = await withFaults({ duplicate: true });
    expect(got.byCommand).toEqual(expected.byCommand);
    expect(got.watcher.answers.some((a) => a !== null && a > 0)).toBe(true);
  });

  it('falls back to full scans when it is killed mid-turn, and still records every change', async () => {
    const expected = await reference();
    const got = await withFaults({}, undefined, async (watcher, i) => {
      if (i === 1) await watcher.kill();
    });
    expect(got.byCommand).toEqual(expected.byCommand);
    expect(got.watcher.answers.slice(-3)).toEqual([null, null, null]);
  });

  it('takes many events since a barrier for an overflow: a full scan, the same attribution', async () => {
    const expected = await reference();
    const got = await withFaults({}, 6);
    expect(got.byCommand).toEqual(expected.byCommand);
    // The 12 files of the second command overflow it; the edits of one file do not.
    expect(got.watcher.answers).toContain(null);
    expect(got.watcher.answers.filter((a) => a !== null).length).toBeGreaterThan(2);
  });
});

describe('a capture after a command whose change the watcher missed', () => {
  it('gives the change to the command first, so the capture does not take it for the turn start', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, { a: '', 'd/e/keep.txt': 'k\n' });
    const start = await sb.tree();
    const factory = faultyFactory({ drop: () => true });
    const engine = await sb.open({ watcher: factory.make } as never);
    const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'missed' });
    const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'touch d/c' });
    await writeFile(join(sb.workspace, 'd/c'), '');
    expect((await engine.execEnd({ ...s, execId: execId! })).changed).toEqual([]);
    // The host renames a onto d/c: d/c's state at the turn start is "absent", not the command's empty file.
    await engine.beforeMutate({ ...s, op: 'rename', uri: 'workspace:/a', to: 'workspace:/d/c' });
    await rename(join(sb.workspace, 'a'), join(sb.workspace, 'd/c'));
    await engine.turnEnd(s);
    expect(engine.getManifest(turnId!).turn.execCommands[0]!.changed).toEqual(['workspace:/d/c']);
    await engine.rollback(turnId!, { force: true });
    expect(await sb.tree()).toEqual(start);
  });

  it('looks at a folder on the way that a command removed unseen: the capture does not take it for made by the turn', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, { 'keep.txt': 'k\n', 'd/x.txt': 'x\n' });
    const start = await sb.tree();
    const factory = faultyFactory({ drop: () => true });
    const engine = await sb.open({ watcher: factory.make } as never);
    const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'missed folder' });
    // The agent's tool moves d/x.txt out (the turn holds it from now on), a command removes d,
    // and the tool writes d/x.txt again: d was there when the turn began.
    await engine.storage.move('workspace:/d/x.txt', 'tmp:/x.txt', s);
    const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'rm -rf d' });
    await rm(join(sb.workspace, 'd'), { recursive: true });
    expect((await engine.execEnd({ ...s, execId: execId! })).changed).toEqual([]);
    await engine.storage.writeFile('workspace:/d/x.txt', 'again\n', s);
    await engine.turnEnd(s);
    expect(engine.getManifest(turnId!).turn.execCommands[0]!.changed).toEqual(['workspace:/d']);
    const result = await engine.rollback(turnId!);
    expect(result.errors).toEqual([]);
    expect(await sb.tree()).toEqual(start);
  });

  it('looks below a path the turn holds as a file that a command made a folder unseen', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, { 'keep.txt': 'k\n', 'd/f': 'f\n' });
    const start = await sb.tree();
    const factory = faultyFactory({ drop: () => true });
    const engine = await sb.open({ watcher: factory.make } as never);
    const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'file to folder' });
    await engine.storage.move('workspace:/d/f', 'workspace:/a', s);
    const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'mkdir -p d/f/e' });
    await mkdir(join(sb.workspace, 'd/f/e'), { recursive: true });
    expect((await engine.execEnd({ ...s, execId: execId! })).changed).toEqual([]);
    await engine.storage.move('workspace:/d/f', 'tmp:/f', s);
    await engine.turnEnd(s);
    const result = await engine.rollback(turnId!);
    expect(result.errors).toEqual([]);
    expect(await sb.tree()).toEqual(start);
  });

  it('looks below a folder the turn holds already: a file a command moved into it unseen is not taken for the turn start', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, { 'keep.txt': 'k\n' });
    const start = await sb.tree();
    const factory = faultyFactory({ delayTakes: 1 });
    const engine = await sb.open({ watcher: factory.make } as never);
    const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'missed below' });
    for (const run of [
      async () => {
        await mkdir(join(sb.workspace, 'n'));
        await writeFile(join(sb.workspace, 'a'), '');
      },
      () => rename(join(sb.workspace, 'a'), join(sb.workspace, 'n/a')),
    ]) {
      const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'c' });
      await run();
      await engine.execEnd({ ...s, execId: execId! });
    }
    // The agent's tool moves the folder out of the workspace: n/a is recorded as the command left it.
    await engine.storage.move('workspace:/n', 'tmp:/n', s);
    await engine.turnEnd(s);
    expect(engine.getManifest(turnId!).files.map((f) => f.uri)).toEqual([]);
    const result = await engine.rollback(turnId!);
    expect(result.restored).toEqual([]);
    expect(await sb.tree()).toEqual(start);
  });
});

describe("the watcher's status", () => {
  it('says watching while it can be relied on, unavailable with its reason once it dies, none without one', async () => {
    const sb = await makeSandbox();
    await plant(sb.workspace, START);
    const factory = faultyFactory();
    const engine = await sb.open({ watcher: factory.make } as never);
    expect(engine.watcherStatus()).toEqual({ state: 'watching', misses: 0 });
    await factory.made[0]!.kill();
    expect(engine.watcherStatus()).toEqual({ state: 'unavailable', reason: 'killed by the test', misses: 0 });
    expect(engine.storeStats().watcher).toEqual({ state: 'unavailable', reason: 'killed by the test', misses: 0 });

    const plain = await makeSandbox();
    expect((await plain.open()).watcherStatus()).toEqual({ state: 'none' });
  });
});
