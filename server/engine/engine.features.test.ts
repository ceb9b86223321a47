import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineFs } from './paths/fs.js';
import { storedContentCount } from '../testkit/contents.js';
import { makeSandbox, openEngineOn, type Sandbox } from '../testkit/sandbox.js';
import { treeAsText } from '../testkit/tree.js';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

const S = { sessionId: 's1' };
const begin = (engine: Awaited<ReturnType<typeof openEngineOn>>, content = 'go') =>
  engine.input({ sessionId: 's1', platform: 'webui', sessionType: 'chat', content });

describe('capture', () => {
  it('keeps the earliest state of a path and appends one entry per later op, each with its own state kept', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), 'v0');
    const engine = await openEngineOn(box);
    const { turnId } = await begin(engine);
    await engine.storage.writeFile('workspace:/a.txt', 'v1', S);
    await engine.storage.writeFile('workspace:/a.txt', 'v2', S);
    await engine.storage.move('workspace:/a.txt', 'workspace:/b/a.txt', S);
    await engine.turnEnd(S);
    const { entries, files, turn } = engine.getManifest(turnId!);
    expect(entries.map((e) => [e.op, e.uri, e.to])).toEqual([
      ['write', 'workspace:/a.txt', undefined],
      ['write', 'workspace:/a.txt', undefined],
      ['mkdir', 'workspace:/b', undefined],
      ['move', 'workspace:/a.txt', 'workspace:/b/a.txt'],
    ]);
    expect(entries[0].before).toMatchObject({ type: 'file', size: 2 });
    expect(entries[1].before).toMatchObject({ type: 'file', size: 2 });
    expect(files.find((f) => f.uri === 'workspace:/b/a.txt')).toMatchObject({
      change: 'moved',
      from: 'workspace:/a.txt',
    });
    expect(turn.fileCount).toBe(2);
    // v0 (the turn's start), v1 (before the second write: undoing that step alone puts it back)
    // and v2 (the end) are kept.
    expect(engine.storeStats().blobs).toBe(3);
    const diff = await engine.diff(turnId!, 'workspace:/b/a.txt');
    expect(diff).toMatchObject({ from: 'workspace:/a.txt', before: { text: 'v0' }, after: { text: 'v2' } });
    await engine.close();
  });

  it('commits the capture before the mutation: a failing capture leaves the file untouched', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), 'original');
    const fs = new EngineFs();
    const engine = await openEngineOn(box, { fs });
    await begin(engine);
    fs.beforeOp = (op, target) => {
      if (target.endsWith('a.txt') && op === 'readFile') throw Object.assign(new Error('i/o error'), { code: 'EIO' });
    };
    await expect(engine.storage.writeFile('workspace:/a.txt', 'new', S)).rejects.toMatchObject({ code: 'EIO' });
    fs.beforeOp = undefined;
    expect(await readFile(path.join(box.workspace, 'a.txt'), 'utf8')).toBe('original');
    await engine.close();
  });

  it('never records untracked roots or writes outside a turn', async () => {
    const engine = await openEngineOn(box);
    await engine.storage.writeFile('workspace:/before.txt', 'x', S);
    const { turnId } = await begin(engine);
    await engine.storage.writeFile('data:/cache.json', '{}', S);
    await engine.storage.writeFile('tmp:/scratch', 'x', S);
    await engine.turnEnd(S);
    expect(engine.getManifest(turnId!)).toMatchObject({ entries: [], files: [], turn: { fileCount: 0 } });
    expect(await readFile(path.join(box.dataDir, 'files', 'cache.json'), 'utf8')).toBe('{}');
    await engine.close();
  });
});

describe('rollback with chat, events and undo', () => {
  it("deletes exactly the turn's messages, and the undo brings them back with the same ids in order", async () => {
    const engine = await openEngineOn(box);
    const events: string[] = [];
    const off = engine.on('memory:messages-deleted', (e) => events.push(`deleted:${e.messageIds.length}`));
    engine.on('memory:messages-restored', (e) => events.push(`restored:${e.messageIds.length}`));
    await begin(engine, 'first');
    await engine.message({ sessionId: 's1', role: 'assistant', content: 'ok 1' });
    await engine.turnEnd(S);
    const { turnId } = await begin(engine, 'second');
    await engine.storage.writeFile('workspace:/f.txt', 'two', S);
    await engine.message({ sessionId: 's1', role: 'assistant', content: 'ok 2' });
    await engine.turnEnd(S);
    const before = engine.messages('s1');
    expect(before.map((m) => m.content)).toEqual(['first', 'ok 1', 'second', 'ok 2']);
    const plan = await engine.preview(turnId!, { withChat: true });
    expect(plan.messages.map((m) => m.content)).toEqual(['second', 'ok 2']);
    const result = await engine.rollbackWithChat(turnId!);
    expect(result).toMatchObject({ ok: true, deletedMessages: 2, deleted: ['workspace:/f.txt'] });
    expect(engine.messages('s1').map((m) => m.content)).toEqual(['first', 'ok 1']);
    const undo = await engine.rollback(result.rollbackTurnId!);
    expect(undo.ok).toBe(true);
    expect(engine.messages('s1')).toEqual(before);
    expect(await readFile(path.join(box.workspace, 'f.txt'), 'utf8')).toBe('two');
    expect(engine.getManifest(turnId!).turn.status).toBe('committed');
    expect(events).toEqual(['deleted:2', 'restored:2']);
    off();
    await engine.close();
  });
});

describe('rewind', () => {
  it('drives every path back to the start of turn N and is undone as one turn', async () => {
    await writeFile(path.join(box.workspace, 'a.txt'), 'a0');
    const start = await treeAsText(box.workspace);
    const engine = await openEngineOn(box);
    const first = await begin(engine, 't1');
    await engine.storage.writeFile('workspace:/a.txt', 'a1', S);
    await engine.turnEnd(S);
    await begin(engine, 't2');
    await engine.storage.writeFile('workspace:/a.txt', 'a2', S);
    await engine.storage.writeFile('workspace:/b.txt', 'b2', S);
    await engine.turnEnd(S);
    const end = await treeAsText(box.workspace);
    const result = await engine.rewind('s1', { toTurnId: first.turnId!, withChat: true });
    expect(result).toMatchObject({ ok: true, deletedMessages: 2 });
    expect(await treeAsText(box.workspace)).toEqual(start);
    const turns = engine.listTurns('s1');
    expect(turns.map((t) => [t.number, t.kind, t.status])).toEqual([
      [1, 'agent', 'rolled-back'],
      [2, 'agent', 'rolled-back'],
      [3, 'rollback', 'committed'],
    ]);
    expect(turns[2]).toMatchObject({ title: 'Rewind to #1', rollbackOf: [turns[0].turnId, turns[1].turnId] });
    await engine.rollback(result.rollbackTurnId!);
    expect(await treeAsText(box.workspace)).toEqual(end);
    expect(
      engine
        .listTurns('s1')
        .slice(0, 2)
        .map((t) => t.status),
    ).toEqual(['committed', 'committed']);
    expect(engine.messages('s1').map((m) => m.content)).toEqual(['t1', 't2']);
    await engine.close();
  });
});

describe('sessions and blobs', () => {
  it('clearSession drops turns, messages and unshared blobs; numbers continue', async () => {
    const engine = await openEngineOn(box);
    await begin(engine);
    await engine.storage.writeFile('workspace:/x.txt', 'only here', S);
    await engine.turnEnd(S);
    expect(engine.storeStats()).toMatchObject({ sessions: 1, turns: 1, blobs: 1 });
    await engine.clearSession('s1');
    expect(engine.storeStats()).toMatchObject({ sessions: 0, turns: 0, blobs: 0, bytes: 0 });
    expect(storedContentCount(box.dataDir)).toBe(0);
    const again = await begin(engine);
    expect(engine.getManifest(again.turnId!).turn.number).toBe(2);
    await expect(engine.clearSession('nope')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    await engine.close();
  });
});

describe('roots and refusals', () => {
  it('a directory moved in from an untracked root is removed by rollback, the untracked root untouched', async () => {
    const engine = await openEngineOn(box);
    await engine.storage.writeFile('tmp:/pkg/a.txt', 'a', S);
    await engine.storage.writeFile('tmp:/pkg/sub/b.txt', 'b', S);
    const { turnId } = await begin(engine);
    await engine.storage.move('tmp:/pkg', 'workspace:/vendor/pkg', S);
    await engine.turnEnd(S);
    expect(engine.getManifest(turnId!).turn.fileCount).toBe(2);
    const result = await engine.rollback(turnId!);
    expect(result.ok).toBe(true);
    expect(await readdir(box.workspace)).toEqual([]);
    expect(await readdir(path.join(box.dataDir, 'tmp'))).toEqual([]);
    await engine.close();
  });

  it('refuses a write below a file with BAD_REQUEST and records nothing', async () => {
    await writeFile(path.join(box.workspace, 'file'), 'x');
    const engine = await openEngineOn(box);
    const { turnId } = await begin(engine);
    await expect(engine.storage.writeFile('workspace:/file/inner.txt', 'y', S)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await engine.turnEnd(S);
    expect(engine.getManifest(turnId!).entries).toEqual([]);
    await engine.close();
  });
});

describe('diff', () => {
  it('cuts text at 1 MiB, flags binary sides, and answers FILE_NOT_FOUND for a path not in the turn', async () => {
    const engine = await openEngineOn(box);
    const { turnId } = await begin(engine);
    await engine.storage.writeFile('workspace:/big.txt', 'é'.repeat(600_000), S);
    await engine.storage.writeFile('workspace:/bin.dat', new Uint8Array([1, 0, 2]), S);
    await engine.turnEnd(S);
    const big = await engine.diff(turnId!, 'workspace:/big.txt');
    expect(big.before).toMatchObject({ exists: false, text: null });
    expect(big.after).toMatchObject({ exists: true, truncated: true, binary: false, size: 1_200_000 });
    expect(big.after.text!.length).toBe(524_288);
    expect((await engine.diff(turnId!, 'workspace:/bin.dat')).after).toMatchObject({
      binary: true,
      text: null,
      size: 3,
    });
    await expect(engine.diff(turnId!, 'workspace:/other')).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await engine.close();
  });
});

describe('symlinked directories inside the root', () => {
  it('records where a write really lands, and rolls it back without following the link', async () => {
    await (await import('node:fs/promises')).mkdir(path.join(box.workspace, 'real'));
    await (await import('node:fs/promises')).symlink('real', path.join(box.workspace, 'alias'));
    const start = await treeAsText(box.workspace);
    const engine = await openEngineOn(box);
    const { turnId } = await begin(engine);
    await engine.storage.writeFile('workspace:/alias/x.txt', 'through the alias', S);
    await engine.turnEnd(S);
    expect(engine.getManifest(turnId!).files.map((f) => f.uri)).toEqual(['workspace:/real/x.txt']);
    expect(await engine.rollback(turnId!)).toMatchObject({ ok: true, deleted: ['workspace:/real/x.txt'] });
    expect(await treeAsText(box.workspace)).toEqual(start);
    await engine.close();
  });

  it('a directory replaced by a link inside the root before rollback is not written through', async () => {
    const fsp = await import('node:fs/promises');
    await fsp.mkdir(path.join(box.workspace, 'dir'));
    await fsp.writeFile(path.join(box.workspace, 'dir', 'a.txt'), 'a0');
    await fsp.mkdir(path.join(box.workspace, 'elsewhere'));
    const engine = await openEngineOn(box);
    const { turnId } = await begin(engine);
    await engine.storage.writeFile('workspace:/dir/a.txt', 'a1', S);
    await engine.turnEnd(S);
    await fsp.rm(path.join(box.workspace, 'dir'), { recursive: true });
    await fsp.symlink('elsewhere', path.join(box.workspace, 'dir'));
    const result = await engine.rollback(turnId!, { force: true });
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => [e.uri, e.code])).toEqual([['workspace:/dir/a.txt', 'SYMLINK']]);
    expect(await readdir(path.join(box.workspace, 'elsewhere'))).toEqual([]);
    await engine.close();
  });
});

describe('files too large to capture', () => {
  it('a file the turn created over maxFileSize is never deleted uncaptured: reported TOO_LARGE', async () => {
    const engine = await openEngineOn(box, { maxFileSize: 16 });
    const { turnId } = await begin(engine);
    await engine.storage.writeFile('workspace:/big.log', 'x'.repeat(64), S);
    await engine.storage.writeFile('workspace:/small.txt', 'small', S);
    await engine.turnEnd(S);
    const result = await engine.rollback(turnId!);
    expect(result).toMatchObject({ ok: false, deleted: ['workspace:/small.txt'] });
    expect(result.errors.map((e) => [e.uri, e.code])).toEqual([['workspace:/big.log', 'TOO_LARGE']]);
    expect(await readFile(path.join(box.workspace, 'big.log'), 'utf8')).toBe('x'.repeat(64));
    expect(engine.getManifest(turnId!).turn.status).toBe('partially-rolled-back');
    await engine.close();
  });
});
