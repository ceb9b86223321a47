import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

describe('each operation and its undo', () => {
  it('rolls back new, modified, deleted, renamed, moved files and new directories', async () => {
    await writeFile(path.join(box.workspace, 'keep.txt'), 'keep\n');
    await writeFile(path.join(box.workspace, 'mod.txt'), 'one\ntwo\n');
    await writeFile(path.join(box.workspace, 'del.bin'), Buffer.from([0, 1, 2, 255]));
    await writeFile(path.join(box.workspace, 'exec.sh'), '#!/bin/sh\n');
    await chmod(path.join(box.workspace, 'exec.sh'), 0o755);
    await mkdir(path.join(box.workspace, 'dir with space/ünï'), { recursive: true });
    await writeFile(path.join(box.workspace, 'dir with space/ünï/a.txt'), 'deep');
    const start = await treeAsText(box.workspace);
    const engine = await openEngineOn(box);
    const { turnId } = await engine.input({
      sessionId: 's1',
      platform: 'webui',
      sessionType: 'chat',
      content: 'do things\nmore',
    });
    expect(turnId).toBeTruthy();
    await engine.storage.writeFile('workspace:/new/deep/file.txt', 'hello', S);
    await engine.storage.writeFile('workspace:/mod.txt', 'one\nthree\n', S);
    await engine.storage.delete('workspace:/del.bin', S);
    await engine.storage.rename('workspace:/exec.sh', 'workspace:/run.sh', S);
    await engine.storage.move('workspace:/dir with space', 'workspace:/moved/here', S);
    await engine.storage.mkdir('workspace:/empty/x', S);
    await engine.storage.writeFile('workspace:/empty.txt', '', S);
    expect(await engine.turnEnd(S)).toEqual({ turnId });
    const manifest = engine.getManifest(turnId!);
    expect(manifest.turn.title).toBe('do things');
    expect(manifest.turn.status).toBe('committed');
    const mod = manifest.files.find((f) => f.uri === 'workspace:/mod.txt');
    expect(mod).toMatchObject({ change: 'modified', lines: { added: 1, removed: 1 } });
    expect(manifest.files.find((f) => f.uri === 'workspace:/run.sh')).toMatchObject({
      change: 'renamed',
      from: 'workspace:/exec.sh',
    });
    const result = await engine.rollback(turnId!);
    expect(result.errors).toEqual([]);
    expect(result.ok).toBe(true);
    expect(await treeAsText(box.workspace)).toEqual(start);
    expect(engine.getManifest(turnId!).turn.status).toBe('rolled-back');
    const again = await engine.rollback(turnId!);
    expect(again).toMatchObject({ ok: true, rollbackTurnId: null });
    // Undo the rollback: back to the turn-end tree.
    const end = await engine.rollback(result.rollbackTurnId!);
    expect(end.ok).toBe(true);
    expect(await readFile(path.join(box.workspace, 'new/deep/file.txt'), 'utf8')).toBe('hello');
    expect(engine.getManifest(turnId!).turn.status).toBe('committed');
    await engine.close();
  });

  it('does not follow a symlink planted before rollback', async () => {
    const outside = path.join(box.base, 'outside.txt');
    await writeFile(outside, 'outside');
    await writeFile(path.join(box.workspace, 'a.txt'), 'a');
    const engine = await openEngineOn(box);
    const { turnId } = await engine.input({ sessionId: 's1', platform: 'webui', sessionType: 'chat', content: 'x' });
    await engine.storage.writeFile('workspace:/a.txt', 'changed', S);
    await engine.turnEnd(S);
    await (await import('node:fs/promises')).rm(path.join(box.workspace, 'a.txt'));
    await symlink(outside, path.join(box.workspace, 'a.txt'));
    const result = await engine.rollback(turnId!);
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => [e.uri, e.code])).toEqual([['workspace:/a.txt', 'SYMLINK']]);
    expect(await readFile(outside, 'utf8')).toBe('outside');
    await engine.close();
  });
});
