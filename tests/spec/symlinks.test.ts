// Symlinks never carry a write out of its root, and a link planted before a rollback is never
// followed: the path is reported in `errors` and whatever lies outside stays untouched.
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import {
  expectCode,
  makeSandbox,
  plant,
  runTurn,
  SESSION,
  who,
  ws,
  type Sandbox,
} from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';
import { snapshotTree } from '../../server/testkit/tree.js';

let sandbox: Sandbox;
let engine: Engine;
const s = who();

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.outside, { 'secret.txt': 'outside the workspace\n', 'dir/inner.txt': 'outside too\n' });
  await plant(sandbox.workspace, {
    a: 'a0\n',
    out: { symlink: sandbox.outside },
    'out-rel': { symlink: '../outside/dir' },
    'out-file': { symlink: join(sandbox.outside, 'secret.txt') },
    'to-data': { symlink: sandbox.dataDir },
  });
  engine = await sandbox.open();
});

describe('writes through symlinks that lead outside the root', () => {
  it('every operation through a symlinked directory leading outside is BAD_URI and touches nothing (nor records anything)', async () => {
    const outsideBefore = await snapshotTree(sandbox.outside);
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, async () => {
      for (const uri of [
        ws('out/secret.txt'),
        ws('out/new.txt'),
        ws('out-rel/inner.txt'),
        ws('out/dir/new/deep.txt'),
        ws('to-data/store/x'),
      ]) {
        await expectCode(engine.storage.writeFile(uri, 'escaped', s), 'BAD_URI');
      }
      await expectCode(engine.storage.delete(ws('out/secret.txt'), s), 'BAD_URI');
      await expectCode(engine.storage.delete(ws('out/dir'), { ...s, recursive: true }), 'BAD_URI');
      await expectCode(engine.storage.rename(ws('a'), ws('out/a'), s), 'BAD_URI');
      await expectCode(engine.storage.move(ws('out/secret.txt'), ws('stolen.txt'), s), 'BAD_URI');
      await expectCode(engine.storage.mkdir(ws('out/made'), s), 'BAD_URI');
      await expectCode(engine.storage.readFile(ws('out/secret.txt')), 'BAD_URI');
      await expectCode(engine.beforeMutate({ ...s, op: 'write', uri: ws('out/secret.txt') }), 'BAD_URI');
    });
    assertSameTree(outsideBefore, await snapshotTree(sandbox.outside), 'outside');
    assertSameTree(start, await sandbox.tree(), 'workspace');
    expect(engine.getManifest(turnId).entries).toEqual([]);
    expect(engine.getManifest(turnId).turn.fileCount).toBe(0);
  });

  it('a URI that is itself a link leading outside is never read or written through', async () => {
    await expectCode(engine.storage.readFile(ws('out-file')), 'BAD_URI');
    await runTurn(engine, async () => {
      // Either reading of docs/api.md keeps the outside intact: refuse (BAD_URI), or replace the link itself.
      const refused = await engine.storage.writeFile(ws('out-file'), 'replaced\n', s).then(
        () => false,
        (e: { code?: string }) => {
          expect(e.code).toBe('BAD_URI');
          return true;
        },
      );
      const node = (await sandbox.tree()).get('out-file');
      expect(node?.type).toBe(refused ? 'symlink' : 'file');
    });
    expect(await readFile(join(sandbox.outside, 'secret.txt'), 'utf8')).toBe('outside the workspace\n');
  });
});

describe('links planted before a rollback are never followed', () => {
  it('a file replaced by a link to outside is reported as SYMLINK (with or without force); outside untouched', async () => {
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('a'), 'a1\n', s));
    await rm(join(sandbox.workspace, 'a'));
    await symlink(join(sandbox.outside, 'secret.txt'), join(sandbox.workspace, 'a'));
    const outsideBefore = await snapshotTree(sandbox.outside);
    const planted = await sandbox.tree();

    for (const force of [false, true]) {
      const result = await engine.rollback(turnId, { force });
      expect(result.ok).toBe(false);
      expect(result.restored).toEqual([]);
      expect(result.errors).toEqual([expect.objectContaining({ uri: ws('a'), code: 'SYMLINK' })]);
      assertSameTree(outsideBefore, await snapshotTree(sandbox.outside), 'outside');
      assertSameTree(planted, await sandbox.tree(), 'workspace');
    }
    expect(await readFile(join(sandbox.outside, 'secret.txt'), 'utf8')).toBe('outside the workspace\n');
  });

  it('a created directory replaced by a link to outside: the files behind it are not deleted', async () => {
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('n/inner.txt'), 'made by the turn\n', s));
    await rm(join(sandbox.workspace, 'n'), { recursive: true });
    await symlink(join(sandbox.outside, 'dir'), join(sandbox.workspace, 'n'));
    const outsideBefore = await snapshotTree(sandbox.outside);

    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => e.code)).toContain('SYMLINK');
    assertSameTree(outsideBefore, await snapshotTree(sandbox.outside), 'outside');
    expect(await readFile(join(sandbox.outside, 'dir', 'inner.txt'), 'utf8')).toBe('outside too\n');
  });

  it('a directory planted where a deleted file goes back is reported, not removed', async () => {
    const turnId = await runTurn(engine, () => engine.storage.delete(ws('a'), s));
    await mkdir(join(sandbox.workspace, 'a'));
    await writeFile(join(sandbox.workspace, 'a', 'person.txt'), 'mine\n');
    const planted = await sandbox.tree();
    for (const force of [false, true]) {
      const result = await engine.rollback(turnId, { force });
      expect(result.ok).toBe(false);
      expect(result.errors).toEqual([expect.objectContaining({ uri: ws('a'), code: 'SYMLINK' })]);
      assertSameTree(planted, await sandbox.tree());
    }
    expect(engine.listTurns(SESSION).find((t) => t.turnId === turnId)?.status).not.toBe('rolled-back');
  });
});
