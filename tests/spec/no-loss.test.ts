// Plain conditions get coded answers, never a silent loss nor an INTERNAL: a full disk
// (NO_SPACE, with a real small tmpfs where this machine lets the test mount one), a name too
// long (BAD_URI), a read too large (TOO_LARGE, without reading it), a damaged store (refused
// at open, naming the file); and contents shared by two sessions survive one being cleared
// while the other's capture of the same bytes is in flight.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, open as openFile, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { EngineFs, openEngine, TEMP_PREFIX } from '../../server/engine/index.js';
import {
  expectCode,
  makeSandbox,
  openTracked,
  plant,
  runTurn,
  who,
  ws,
  type Sandbox,
} from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';
import { snapshotTree } from '../../server/testkit/tree.js';

let sandbox: Sandbox;
const s = who();

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { a: 'a0 the original\n', 'd/b': 'b0\n' });
});

/**
 * A tmpfs of `size` at `dir`, or null where this machine does not let a test mount one. A data dir
 * must be private (0700), where a tmpfs's root is 1777 unless told otherwise.
 */
function smallDisk(dir: string, size: string, mode?: string): { unmount(): void } | null {
  if (process.getuid?.() !== 0) return null;
  const options = mode === undefined ? `size=${size}` : `size=${size},mode=${mode}`;
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]).status === 0;
  return mounted
    ? {
        unmount: () => {
          execFileSync('umount', ['-l', dir]);
        },
      }
    : null;
}

const mounted: { unmount(): void }[] = [];
afterEach(() => {
  for (const m of mounted.splice(0)) m.unmount();
});

describe('a full disk', () => {
  it('under the workspace: the write answers NO_SPACE, the original stays, the turn still rolls back', async (t) => {
    const dir = join(sandbox.base, 'small-workspace');
    await mkdir(dir);
    const disk = smallDisk(dir, '256k');
    if (!disk) return t.skip();
    mounted.push(disk);
    await plant(dir, { a: 'a0 the original\n' });
    const engine = await openTracked({ workspace: dir, dataDir: sandbox.dataDir });
    const turnId = await runTurn(engine, async () => {
      const refused = await expectCode(engine.storage.writeFile(ws('a'), Buffer.alloc(1 << 20, 0x61), s), 'NO_SPACE');
      expect(refused.details).toMatchObject({ system: 'ENOSPC' });
    });
    expect(await readFile(join(dir, 'a'), 'utf8')).toBe('a0 the original\n');
    expect((await engine.rollback(turnId)).ok).toBe(true);
    await engine.close();
  });

  it('under the data dir: the capture answers NO_SPACE and the agent write does not go ahead', async (t) => {
    const dataDir = join(sandbox.base, 'small-data');
    await mkdir(dataDir);
    const disk = smallDisk(dataDir, '1m', '700');
    if (!disk) return t.skip();
    mounted.push(disk);
    const big = Buffer.alloc(3 << 20, 0x62);
    await writeFile(join(sandbox.workspace, 'big'), big);
    const engine = await openTracked({ workspace: sandbox.workspace, dataDir });
    const start = await sandbox.tree();
    await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'overwrite big' });
    await expectCode(engine.storage.writeFile(ws('big'), 'small now\n', s), 'NO_SPACE');
    assertSameTree(start, await sandbox.tree());
    await engine.turnEnd(s).catch(() => undefined);
    await engine.close().catch(() => undefined);
  });
});

/**
 * A 12 MiB disk holding ten files of `size` (1 MiB and a little more by default: too large to be
 * written over in place, so a rollback replaces each by rename, through a temp copy) that a turn
 * rewrote with other bytes of `rewritten` (the same size by default; about 2 MiB free, as the
 * turn leaves it); null where no tmpfs can be mounted.
 */
async function nearlyFullDisk(placeBatchBytes: number, size = (1 << 20) + 1, rewritten = size) {
  const dir = join(sandbox.base, 'small-workspace');
  await mkdir(dir);
  const disk = smallDisk(dir, '12m');
  if (!disk) return null;
  mounted.push(disk);
  const files: Record<string, Buffer> = {};
  for (let i = 0; i < 10; i++) files[`f${i}`] = Buffer.alloc(size, 0x30 + i);
  await plant(dir, files);
  const engine = await openTracked({ workspace: dir, dataDir: sandbox.dataDir, placeBatchBytes } as never);
  const start = await snapshotTree(dir);
  const turnId = await runTurn(engine, async () => {
    for (let i = 0; i < 10; i++) await engine.storage.writeFile(ws(`f${i}`), Buffer.alloc(rewritten, 0x61 + i), s);
  });
  return { dir, engine, start, turnId };
}

describe('a rollback on a disk nearly full', () => {
  it('places its files batch by batch, so it needs room for one batch of copies, not for the whole turn', async (t) => {
    const disk = await nearlyFullDisk(2 << 20);
    if (!disk) return t.skip();
    const { dir, engine, start, turnId } = disk;
    const result = await engine.rollback(turnId);
    expect(result.errors).toEqual([]);
    expect(result.restored).toHaveLength(10);
    assertSameTree(start, await snapshotTree(dir));
    await engine.close();
  });

  it('out of space for even one batch, says which paths are done and which are not', async (t) => {
    const disk = await nearlyFullDisk(4 << 20);
    if (!disk) return t.skip();
    const { dir, engine, turnId } = disk;
    // Then the disk fills up, but for the room of about one file.
    await writeFile(join(dir, 'filler'), Buffer.alloc((1 << 20) + (512 << 10)));
    const result = await engine.rollback(turnId, { force: true });
    expect(result.ok).toBe(false);
    for (const e of result.errors) expect(e).toMatchObject({ code: 'IO', systemCode: 'ENOSPC' });
    expect(result.restored.length + result.errors.length).toBe(10);
    for (const uri of result.restored) {
      const i = Number(uri.slice(-1));
      expect((await readFile(join(dir, `f${i}`)))[0]).toBe(0x30 + i);
    }
    for (const { uri } of result.errors) {
      const i = Number(uri.slice(-1));
      expect((await readFile(join(dir, `f${i}`)))[0]).toBe(0x61 + i);
    }
    await engine.close();
  });
});

describe('names and sizes', () => {
  it('a name longer than the filesystem allows is BAD_URI, inside a turn and outside', async () => {
    const engine = await sandbox.open();
    const long = ws(`${'n'.repeat(300)}.txt`);
    await expectCode(engine.storage.writeFile(long, 'x', s), 'BAD_URI');
    await runTurn(engine, () => expectCode(engine.storage.writeFile(long, 'x', s), 'BAD_URI'));
    await expectCode(engine.storage.readFile(long), 'BAD_URI');
  });

  it('a read of a file over the limit is TOO_LARGE, answered without reading the file', async () => {
    const engine = await sandbox.open();
    const handle = await openFile(join(sandbox.workspace, 'huge.bin'), 'w');
    await handle.truncate(700 * 1024 * 1024);
    await handle.close();
    const rssBefore = process.memoryUsage().rss;
    const refused = await expectCode(
      engine.storage.readFile(ws('huge.bin'), { maxBytes: 16 * 1024 * 1024 }),
      'TOO_LARGE',
    );
    expect(refused.details).toMatchObject({ uri: ws('huge.bin'), size: 700 * 1024 * 1024, limit: 16 * 1024 * 1024 });
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
    expect(Buffer.from(await engine.storage.readFile(ws('a'), { maxBytes: 1024 })).toString()).toBe(
      'a0 the original\n',
    );
  });
});

describe('a damaged store', () => {
  it('is refused at open with one clear message naming the file, and left as it is', async () => {
    const engine = await sandbox.open();
    await runTurn(engine, () => engine.storage.writeFile(ws('a'), 'a1\n', s));
    await engine.close();
    const file = join(sandbox.dataDir, 'store', 'turnback.db');
    const bytes = await readFile(file);
    // Scribble over every page after the first: the header stays, the tree pages do not.
    for (let at = 4096; at < bytes.length; at += 4096) bytes.fill(0x5a, at + 8, at + 2048);
    await writeFile(file, bytes);
    await expect(openEngine({ workspace: sandbox.workspace, dataDir: sandbox.dataDir })).rejects.toMatchObject({
      code: 'STORE_DAMAGED',
      message: expect.stringContaining(file),
    });
    expect((await readFile(file)).equals(bytes)).toBe(true);
  });

  it('a file that is not a database at all is refused the same way', async () => {
    await mkdir(join(sandbox.dataDir, 'store'), { recursive: true });
    await writeFile(
      join(sandbox.dataDir, 'store', 'turnback.db'),
      'this is not a database, it is a note\n'.repeat(200),
    );
    await expect(openEngine({ workspace: sandbox.workspace, dataDir: sandbox.dataDir })).rejects.toMatchObject({
      code: 'STORE_DAMAGED',
    });
  });
});

describe('contents two sessions share', () => {
  it('survive one session being cleared while the other captures the same bytes', async () => {
    const SAME = 'the same bytes in both sessions\n';
    await plant(sandbox.workspace, { shared: SAME, copy: SAME });
    const fs = new EngineFs();
    const engine: Engine = await openTracked({ workspace: sandbox.workspace, dataDir: sandbox.dataDir, fs } as never);
    // s1 keeps SAME (its original of `shared`); s2 will capture the same bytes (its original of `copy`).
    await runTurn(engine, () => engine.storage.writeFile(ws('shared'), 'changed by s1\n', who('s1')), {
      sessionId: 's1',
    });
    const { turnId } = await engine.input({
      sessionId: 's2',
      platform: 'webui',
      sessionType: 'chat',
      content: 'capture',
    });
    // s2's capture is held right after it has read the file, before its transaction.
    let release!: () => void;
    let reached!: () => void;
    const atRead = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    fs.beforeOp = async (op, target) => {
      if (op === 'readFile' && target.endsWith('/copy')) {
        fs.beforeOp = undefined;
        reached();
        await gate;
      }
    };
    const write = engine.storage.writeFile(ws('copy'), 'changed by s2\n', who('s2'));
    await atRead;
    await engine.clearSession('s1');
    release();
    await write;
    await engine.turnEnd({ sessionId: 's2' });
    await engine.close();

    const reopened = await sandbox.open();
    const result = await reopened.rollback(turnId!);
    expect(result).toMatchObject({ ok: true, errors: [] });
    expect(await readFile(join(sandbox.workspace, 'copy'), 'utf8')).toBe(SAME);
  });
});

describe('a rollback writing over files in place on a disk nearly full', () => {
  it('needs no room for copies: files of the same size are written over where they are', async (t) => {
    // 1 MiB files, about 2 MiB free: no room for the copies a rename needs, none needed.
    const disk = await nearlyFullDisk(64 << 20, 1 << 20);
    if (!disk) return t.skip();
    const { dir, engine, start, turnId } = disk;
    await writeFile(join(dir, 'filler'), Buffer.alloc((1 << 20) + (512 << 10)));
    const result = await engine.rollback(turnId);
    expect(result.errors).toEqual([]);
    expect(result.restored).toHaveLength(10);
    await rm(join(dir, 'filler'));
    assertSameTree(start, await snapshotTree(dir));
    await engine.close();
  });

  it('a file that grows past the room left is put back whole, old or new, never part of each', async (t) => {
    // The originals are 1 MiB, the turn left 256 KiB in each: putting them back needs 7.5 MiB, and about 3 MiB are free.
    const disk = await nearlyFullDisk(64 << 20, 1 << 20, 256 << 10);
    if (!disk) return t.skip();
    const { dir, engine, turnId } = disk;
    await writeFile(join(dir, 'filler'), Buffer.alloc(6 << 20));
    const result = await engine.rollback(turnId, { force: true });
    expect(result.ok).toBe(false);
    for (const e of result.errors) expect(e).toMatchObject({ code: 'IO', systemCode: 'ENOSPC' });
    expect(result.restored.length).toBeGreaterThan(0);
    expect(result.restored.length + result.errors.length).toBe(10);
    const holds = async (i: number, size: number, byte: number) =>
      (await readFile(join(dir, `f${i}`))).equals(Buffer.alloc(size, byte));
    for (const uri of result.restored) {
      const i = Number(uri.slice(-1));
      expect(await holds(i, 1 << 20, 0x30 + i)).toBe(true);
    }
    for (const { uri } of result.errors) {
      const i = Number(uri.slice(-1));
      expect(await holds(i, 256 << 10, 0x61 + i), `f${i} holds the turn's content whole`).toBe(true);
    }
    // Nothing was lost: with room again, the rollback completes.
    await rm(join(dir, 'filler'));
    expect((await engine.rollback(turnId)).ok).toBe(true);
    await engine.close();
  });
});

describe('a commit that fails', () => {
  it("does not leave a rollback's turn active: it is committed interrupted, the turn it rolled back says so, and its undo works", async () => {
    const fs = new EngineFs();
    const lines: string[] = [];
    const engine: Engine = await openTracked({
      workspace: sandbox.workspace,
      dataDir: sandbox.dataDir,
      fs,
      log: (line: string) => lines.push(line),
    } as never);
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('a'), 'a1\n', s);
      await engine.storage.writeFile(ws('new/c'), 'c1\n', s);
    });
    const end = await sandbox.tree();
    // Once the rollback has placed its files, the first look its commit takes at the disk fails.
    // (A file is placed by a rename, or by a write over it in place: a write to the file itself.)
    let placed = false;
    let failed = false;
    fs.beforeOp = (op, target) => {
      if (op === 'rename' || (op === 'write' && !basename(target).startsWith(TEMP_PREFIX))) placed = true;
      if (placed && !failed && op === 'lstat') {
        failed = true;
        throw Object.assign(new Error('EIO: injected, lstat'), { code: 'EIO' });
      }
    };
    const result = await engine.rollback(turnId);
    fs.beforeOp = undefined;
    expect(failed).toBe(true);
    expect(result.ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
    const rollbackTurn = engine.getManifest(result.rollbackTurnId!).turn;
    expect(rollbackTurn).toMatchObject({ status: 'committed', interrupted: true });
    expect(lines).toContain(
      `the commit of rollback turn ${result.rollbackTurnId} failed (EIO: injected, lstat); committed without its after-contents, as interrupted`,
    );
    expect(engine.getManifest(turnId).turn.status).toBe('rolled-back');
    expect(await engine.rollback(turnId)).toMatchObject({ ok: true, rollbackTurnId: null });
    const undo = await engine.rollback(result.rollbackTurnId!);
    expect(undo.ok).toBe(true);
    assertSameTree(end, await sandbox.tree());
    await engine.close();
  });

  it("does not leave an agent's turn active when its after-contents cannot be kept", async () => {
    const fs = new EngineFs();
    const lines: string[] = [];
    const engine: Engine = await openTracked({
      workspace: sandbox.workspace,
      dataDir: sandbox.dataDir,
      fs,
      log: (line: string) => lines.push(line),
    } as never);
    const start = await sandbox.tree();
    const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'edit' });
    await engine.storage.writeFile(ws('a'), 'a1\n', s);
    let failed = false;
    fs.beforeOp = (op, target) => {
      if (!failed && op === 'readFile' && target.endsWith('/a')) {
        failed = true;
        throw Object.assign(new Error('EIO: injected, read'), { code: 'EIO' });
      }
    };
    expect(await engine.turnEnd(s)).toEqual({ turnId });
    fs.beforeOp = undefined;
    expect(engine.listSessions()[0].activeTurnId).toBeNull();
    expect(engine.getManifest(turnId!).turn).toMatchObject({ status: 'committed', interrupted: true, fileCount: 1 });
    expect(lines).toContain(
      `the commit of turn ${turnId} failed (EIO: injected, read); committed without its after-contents, as interrupted`,
    );
    expect((await engine.rollback(turnId!)).ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
    await engine.close();
  });
});

afterEach(async () => {
  await rm(join(sandbox.base, 'small-workspace'), { recursive: true, force: true }).catch(() => undefined);
});
