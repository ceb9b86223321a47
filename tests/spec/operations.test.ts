// Each storage operation, recorded in a turn, and its undo: the rollback restores the exact
// turn-start tree (bytes, modes, symlinks, empty directories) and undoing it the turn-end tree.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import type { FileChange } from '../../server/protocol.js';
import { makeSandbox, plant, who, ws, type Sandbox } from '../../server/testkit/engine-harness.js';
import { roundTrip } from './roundtrip.testutil.js';

const BINARY = Uint8Array.from([0, 1, 2, 255, 254, 0, 10, 13, 0x80, 0x81]);
const DEEP = 'a/b/c/d/e/f/g/h';
const UNICODE_DIR = 'ünï códe';

let sandbox: Sandbox;
let engine: Engine;

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, {
    'a.txt': 'alpha\n',
    'bin.dat': BINARY,
    empty: '',
    'tool.sh': { content: '#!/bin/sh\necho hi\n', mode: 0o755 },
    'dir/inner.txt': 'inner\n',
    'dir/sub/deep.txt': 'deep\n',
    'dir/emptysub': { dir: true, mode: 0o700 },
    'dir/link': { symlink: 'inner.txt' },
    [`${UNICODE_DIR}/spaced name.txt`]: 'unicode and spaces\n',
    [`${DEEP}/deep.txt`]: 'very deep\n',
  });
  engine = await sandbox.open();
});

function change(turnId: string, uri: string): FileChange | undefined {
  return engine.getManifest(turnId).files.find((f) => f.uri === uri);
}

describe('each operation and its undo', () => {
  it('a new file is deleted by the rollback and comes back with the undo', async () => {
    const trip = await roundTrip(sandbox, engine, () => engine.storage.writeFile(ws('new.txt'), 'hello', who()));
    expect(change(trip.turnId, ws('new.txt'))?.change).toBe('created');
    expect(trip.rollback.deleted).toEqual([ws('new.txt')]);
    const turn = engine.getManifest(trip.turnId).turn;
    expect(turn.fileCount).toBe(1);
    expect(turn.kind).toBe('agent');
    expect(turn.number).toBe(1);
  });

  it('a modified text file gets its bytes back', async () => {
    const trip = await roundTrip(sandbox, engine, () => engine.storage.writeFile(ws('a.txt'), 'beta\n', who()));
    expect(change(trip.turnId, ws('a.txt'))).toMatchObject({ change: 'modified', lines: { added: 1, removed: 1 } });
    expect(trip.rollback.restored).toEqual([ws('a.txt')]);
    const diff = await engine.diff(trip.turnId, ws('a.txt'));
    expect(diff.before).toMatchObject({ exists: true, binary: false, text: 'alpha\n' });
    expect(diff.after).toMatchObject({ exists: true, binary: false, text: 'beta\n' });
  });

  it('binary content round-trips byte for byte', async () => {
    const other = Uint8Array.from([0, 0, 0, 7, 255, 128]);
    const trip = await roundTrip(sandbox, engine, async () => {
      await engine.storage.writeFile(ws('bin.dat'), other, who());
      await engine.storage.writeFile(ws('new.bin'), BINARY, who());
    });
    const diff = await engine.diff(trip.turnId, ws('bin.dat'));
    expect(diff.before).toMatchObject({ exists: true, binary: true, text: null, size: BINARY.length });
    expect(diff.after).toMatchObject({ exists: true, binary: true, text: null, size: other.length });
  });

  it('empty files: filled, emptied and created empty', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.writeFile(ws('empty'), 'no longer empty', who());
      await engine.storage.writeFile(ws('a.txt'), '', who());
      await engine.storage.writeFile(ws('new-empty'), new Uint8Array(0), who());
    });
  });

  it('a write keeps mode 0755, and a deleted 0755 file comes back 0755', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.writeFile(ws('tool.sh'), '#!/bin/sh\necho bye\n', who());
      expect((await stat(join(sandbox.workspace, 'tool.sh'))).mode & 0o777).toBe(0o755);
    });
    const trip = await roundTrip(sandbox, engine, () => engine.storage.delete(ws('tool.sh'), who()));
    expect(change(trip.turnId, ws('tool.sh'))?.change).toBe('deleted');
  });

  it('a deleted file is restored', async () => {
    const trip = await roundTrip(sandbox, engine, () => engine.storage.delete(ws('a.txt'), who()));
    expect(change(trip.turnId, ws('a.txt'))).toMatchObject({ change: 'deleted', after: null });
    expect(trip.rollback.restored).toEqual([ws('a.txt')]);
  });

  it('a rename goes back by rename (same inode)', async () => {
    let inode = 0;
    const trip = await roundTrip(sandbox, engine, () => engine.storage.rename(ws('a.txt'), ws('b.txt'), who()), {
      afterTurn: async () => {
        inode = (await stat(join(sandbox.workspace, 'b.txt'))).ino;
      },
    });
    expect(change(trip.turnId, ws('b.txt'))).toMatchObject({ change: 'renamed', from: ws('a.txt') });
    expect(trip.rollback.movedBack).toEqual([{ from: ws('b.txt'), to: ws('a.txt') }]);
    const diff = await engine.diff(trip.turnId, ws('b.txt'));
    expect(diff).toMatchObject({ uri: ws('b.txt'), from: ws('a.txt') });
    expect(diff.before).toMatchObject({ exists: true, text: 'alpha\n' });
    expect(diff.after).toMatchObject({ exists: true, text: 'alpha\n' });
    // After the undo the file sits at b.txt again; the rollback itself moved it by rename.
    expect((await stat(join(sandbox.workspace, 'b.txt'))).ino).toBe(inode);
  });

  it('a move into new directories goes back and leaves no directory behind', async () => {
    const trip = await roundTrip(sandbox, engine, () =>
      engine.storage.move(ws('a.txt'), ws('new/deeper/a.txt'), who()),
    );
    expect(change(trip.turnId, ws('new/deeper/a.txt'))).toMatchObject({ change: 'moved', from: ws('a.txt') });
    const created = engine
      .getManifest(trip.turnId)
      .files.filter((f) => f.change === 'dir-created')
      .map((f) => f.uri);
    expect(created.sort()).toEqual([ws('new'), ws('new/deeper')]);
  });

  it('mkdir (with parents) is undone, and directories are not counted as files', async () => {
    const trip = await roundTrip(sandbox, engine, () => engine.storage.mkdir(ws('m/n/o'), who()));
    const created = engine
      .getManifest(trip.turnId)
      .files.filter((f) => f.change === 'dir-created')
      .map((f) => f.uri);
    expect(created.sort()).toEqual([ws('m'), ws('m/n'), ws('m/n/o')]);
    expect(engine.getManifest(trip.turnId).turn.fileCount).toBe(0);
  });

  it('a recursive delete comes back whole: files, modes, symlinks, empty directories', async () => {
    const trip = await roundTrip(sandbox, engine, () =>
      engine.storage.delete(ws('dir'), { ...who(), recursive: true }),
    );
    const files = engine.getManifest(trip.turnId).files;
    expect(files.find((f) => f.uri === ws('dir/inner.txt'))?.change).toBe('deleted');
    expect(files.find((f) => f.uri === ws('dir/sub/deep.txt'))?.change).toBe('deleted');
  });

  it('unicode and space-laden names', async () => {
    const from = ws(`${UNICODE_DIR}/spaced name.txt`);
    const to = ws(`${UNICODE_DIR}/другое имя ✓.txt`);
    const trip = await roundTrip(sandbox, engine, async () => {
      await engine.storage.writeFile(from, 'changed ✓\n', who());
      await engine.storage.rename(from, to, who());
      await engine.storage.writeFile(ws('新しい ファイル.txt'), '新\n', who());
    });
    const uris = engine.getManifest(trip.turnId).files.map((f) => f.uri);
    expect(uris).toContain(to);
    expect(uris).toContain(ws('新しい ファイル.txt'));
  });

  it('deep paths: a write nine directories down and a change at the bottom of an existing chain', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.writeFile(ws('p/q/r/s/t/u/v/w/x/new.txt'), 'bottom\n', who());
      await engine.storage.writeFile(ws(`${DEEP}/deep.txt`), 'changed\n', who());
    });
  });

  it('diff sides: absent before a creation, text cut at 1 MiB with truncated set', async () => {
    const big = 'line of text\n'.repeat(120_000);
    const trip = await roundTrip(sandbox, engine, () => engine.storage.writeFile(ws('big.txt'), big, who()));
    const diff = await engine.diff(trip.turnId, ws('big.txt'));
    expect(diff.before).toMatchObject({ exists: false, text: null });
    expect(diff.after).toMatchObject({ exists: true, binary: false, truncated: true, size: big.length });
    expect(diff.after.text?.length).toBe(1024 * 1024);
  });

  it('readFile returns what writeFile wrote', async () => {
    await engine.storage.writeFile(ws('r.bin'), BINARY, who());
    expect(Buffer.from(await engine.storage.readFile(ws('r.bin')))).toEqual(Buffer.from(BINARY));
    expect(await readFile(join(sandbox.workspace, 'r.bin'))).toEqual(Buffer.from(BINARY));
  });
});
