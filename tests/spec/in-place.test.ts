// A rollback writes a file that holds one link over in place: the same inode takes the restored
// bytes and mode (no new inode, the costliest call of a restore). A file with another hard link
// is replaced by rename, so the other name keeps its bytes. A stop in the middle of an in-place
// write can leave a file part old, part new: the next open finishes it from the store before it
// commits the interrupted rollback turn, and running the rollback again completes it. A file
// whose bytes no cut-short write explains (a change made since) is left as it is, and the
// rollback then weighs it as drift: nothing is overwritten unseen.
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { link, lstat, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import type { EngineContext } from '../../server/engine/context.js';
import { EngineFs, openEngine } from '../../server/engine/index.js';
import type { Lock } from '../../server/engine/lock.js';
import { cutShortBetween } from '../../server/engine/rollback/overwrite-repair.js';
import { expectCode, makeSandbox, plant, runTurn, who, ws, type Sandbox } from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';

let sandbox: Sandbox;
const s = who();
const ORIGINAL = 'the original, shorter\n';
const AGENTS = 'a line the agent put first\nthe original, shorter\nand one more it added\n';

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { 'd.txt': ORIGINAL, 'e.txt': 'e0\n' });
});

/** Stops the engine dead before the first `op` on `file` (nothing after it runs), as a crash would. */
function stopBefore(op: string, path: string): { fs: EngineFs; stopped: Promise<void> } {
  // The seam names the real path.
  const file = join(realpathSync(sandbox.workspace), path);
  let hit: () => void = () => {};
  const stopped = new Promise<void>((resolve) => (hit = resolve));
  let armed = false;
  const fs = new EngineFs({
    beforeOp: (name, target) => {
      if (name === 'open' && target === file) armed = true;
      if (!armed || name !== op || target !== file) return;
      hit();
      return new Promise<void>(() => {});
    },
  });
  return { fs, stopped };
}

/** An engine that will be stopped dead: not closed after the test (abandon closes its store). */
function openToStop(fs: EngineFs): Promise<Engine> {
  return openEngine({ workspace: sandbox.workspace, dataDir: sandbox.dataDir, fs });
}

/** The store closed under a stopped engine and its lock socket freed, its lock file left by a process that is gone. */
async function abandon(engine: Engine): Promise<void> {
  (engine as unknown as { ctx: EngineContext }).ctx.store.close();
  await (engine as unknown as { lock: Lock }).lock.release();
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  await writeFile(join(sandbox.dataDir, 'store', 'lock'), JSON.stringify({ pid: dead, at: new Date().toISOString() }));
}

/** A turn that put a line first in d.txt and changed e.txt; a rollback stopped before it cut d.txt back. */
async function stoppedRollback(op: 'truncate' | 'chmod') {
  const d = join(sandbox.workspace, 'd.txt');
  const { fs, stopped } = stopBefore(op, 'd.txt');
  const engine = await openToStop(fs);
  const start = await sandbox.tree();
  const turnId = await runTurn(engine, async () => {
    await engine.storage.writeFile(ws('d.txt'), AGENTS, s);
    await engine.storage.writeFile(ws('e.txt'), 'e1\n', s);
  });
  const { ino } = await lstat(d);
  void engine.rollback(turnId);
  await stopped;
  await abandon(engine);
  return { d, ino, start, turnId };
}

describe('how a rollback places a file', () => {
  it('one link: written over in place, the same inode with the restored bytes and mode', async () => {
    await plant(sandbox.workspace, { 'd.txt': { content: ORIGINAL, mode: 0o640 } });
    const d = join(sandbox.workspace, 'd.txt');
    const engine = await sandbox.open();
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('d.txt'), AGENTS, s));
    const { ino } = await lstat(d);
    expect((await engine.rollback(turnId)).restored).toEqual([ws('d.txt')]);
    expect((await lstat(d)).ino).toBe(ino);
    assertSameTree(start, await sandbox.tree());
  });

  it('another hard link: replaced by rename, the other name keeps its bytes', async () => {
    const d = join(sandbox.workspace, 'd.txt');
    const engine = await sandbox.open();
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('d.txt'), AGENTS, s));
    await link(d, join(sandbox.outside, 'd-elsewhere'));
    expect((await engine.rollback(turnId, { force: true })).restored).toEqual([ws('d.txt')]);
    expect(await readFile(join(sandbox.outside, 'd-elsewhere'), 'utf8')).toBe(AGENTS);
    expect((await lstat(d)).nlink).toBe(1);
    assertSameTree(start, await sandbox.tree());
  });
});

describe('a rollback stopped while it writes a file over in place', () => {
  it('between the write and the cut back: the next open finishes the file, and the rollback completes', async () => {
    const { d, ino, start, turnId } = await stoppedRollback('truncate');
    // Part new, part old: the original's bytes, then the tail of what the agent left.
    expect(await readFile(d, 'utf8')).toBe(ORIGINAL + AGENTS.slice(ORIGINAL.length));
    const reopened = await sandbox.open();
    expect(reopened.recovery).toMatchObject({ finishedFiles: 1 });
    expect(await readFile(d, 'utf8')).toBe(ORIGINAL);
    expect((await lstat(d)).ino).not.toBe(ino); // finished by rename, over that very file
    const again = await reopened.rollback(turnId);
    expect(again.ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
  });

  it('before its mode is given: the next open gives it', async () => {
    await plant(sandbox.workspace, { 'd.txt': { content: ORIGINAL, mode: 0o755 } });
    const d = join(sandbox.workspace, 'd.txt');
    const { fs, stopped } = stopBefore('chmod', 'd.txt');
    const engine = await openToStop(fs);
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, async () => {
      const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'rewrite d.txt, chmod 644' });
      await writeFile(d, AGENTS);
      spawnSync('chmod', ['644', d]);
      await engine.execEnd({ ...s, execId: execId! });
    });
    void engine.rollback(turnId);
    await stopped;
    await abandon(engine);
    expect(await readFile(d, 'utf8')).toBe(ORIGINAL);
    expect((await lstat(d)).mode & 0o777).toBe(0o644);
    const reopened = await sandbox.open();
    expect(reopened.recovery).toMatchObject({ finishedFiles: 1 });
    expect((await lstat(d)).mode & 0o777).toBe(0o755);
    expect((await reopened.rollback(turnId)).ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
  });

  it('a file changed after the stop is left as it is, and the rollback weighs it as drift', async () => {
    const { d, turnId } = await stoppedRollback('truncate');
    const person = 'the person rewrote it before turnback came back\n';
    await writeFile(d, person);
    const reopened = await sandbox.open();
    expect(reopened.recovery).toMatchObject({ finishedFiles: 0 });
    expect(await readFile(d, 'utf8')).toBe(person);
    const refused = await expectCode(reopened.rollback(turnId), 'CONFLICT');
    expect(refused.details).toMatchObject({ conflicts: [ws('d.txt')] });
    expect(await readFile(d, 'utf8')).toBe(person);
  });
});

describe('what a write cut short can leave', () => {
  const before = Buffer.from('0123456789');
  const after = Buffer.from('abcdef');
  it.each([
    ['the new bytes over the old, not cut back yet', 'abcdef6789', true],
    ['part of the new bytes over the old', 'abc3456789', true],
    ['blocks a power cut left zero', 'abc\0\0\0\0\0\0\0', true],
    ['the new content whole', 'abcdef', true],
    ['shorter than either', 'abc', false],
    ['longer than either', 'abcdef6789X', false],
    ['a byte neither had there', 'abcdeX6789', false],
  ])('%s: %s', (_name, now, explained) => {
    expect(cutShortBetween(Buffer.from(now), before, after)).toBe(explained);
  });
});
