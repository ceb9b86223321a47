// Chains of operations on the same paths within one turn: LIFO undo must walk the whole chain
// and land on the exact turn-start tree, directories the turn created included.
import { rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { makeSandbox, plant, runTurn, who, ws, type Sandbox } from '../../server/testkit/engine-harness.js';
import { roundTrip } from './roundtrip.testutil.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';

let sandbox: Sandbox;
let engine: Engine;

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, {
    A: 'A original\n',
    B: 'B original\n',
    'exec.sh': { content: 'run\n', mode: 0o755 },
    'd/inner.txt': 'inner\n',
    'd/sub/leaf.txt': 'leaf\n',
    'd/empty': { dir: true, mode: 0o750 },
    ln: { symlink: 'A' },
    'ln-dir': { symlink: 'd' },
    dangling: { symlink: 'nowhere/at/all' },
  });
  engine = await sandbox.open();
});

const s = who();

describe('chains in one turn roll back to the exact start tree', () => {
  it('write A → move A→B → write B (B new, in new directories)', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.writeFile(ws('A'), 'A v2\n', s);
      await engine.storage.move(ws('A'), ws('n1/n2/B'), s);
      await engine.storage.writeFile(ws('n1/n2/B'), 'B v3\n', s);
    });
  });

  it('write new → move → write, for a file that did not exist', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.writeFile(ws('fresh'), 'one\n', s);
      await engine.storage.move(ws('fresh'), ws('x/fresh'), s);
      await engine.storage.writeFile(ws('x/fresh'), 'two\n', s);
    });
  });

  it('move A→B (onto an existing B) → write B', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.move(ws('A'), ws('B'), s);
      await engine.storage.writeFile(ws('B'), 'written after the move\n', s);
    });
  });

  it('rename A→C → C→D', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.rename(ws('A'), ws('C'), s);
      await engine.storage.rename(ws('C'), ws('D'), s);
    });
  });

  it('delete A → recreate A', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.delete(ws('A'), s);
      await engine.storage.writeFile(ws('A'), 'a different A\n', s);
    });
  });

  it('rename onto an existing file restores both ends', async () => {
    const trip = await roundTrip(sandbox, engine, () => engine.storage.rename(ws('exec.sh'), ws('B'), s));
    const entry = engine.getManifest(trip.turnId).entries.find((e) => e.op === 'rename');
    expect(entry).toMatchObject({ uri: ws('exec.sh'), to: ws('B') });
    expect(entry?.toBefore).toMatchObject({ type: 'file' });
  });

  it('move a directory, then write inside it (existing and new files)', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.move(ws('d'), ws('e/f/d2'), s);
      await engine.storage.writeFile(ws('e/f/d2/inner.txt'), 'inner changed\n', s);
      await engine.storage.writeFile(ws('e/f/d2/sub/new.txt'), 'new inside\n', s);
      await engine.storage.delete(ws('e/f/d2/sub/leaf.txt'), s);
    });
  });

  it('delete a file inside a directory, then move the directory', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.delete(ws('d/sub/leaf.txt'), s);
      await engine.storage.move(ws('d'), ws('moved-d'), s);
    });
  });

  it('recursive delete of a directory with its own mode, then a write that recreates it', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.delete(ws('d'), { ...s, recursive: true });
      await engine.storage.writeFile(ws('d/empty/new.txt'), 'recreated parent\n', s);
    });
  });

  it('delete a symlink, then rename a directory onto its path', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.delete(ws('ln-dir'), s);
      await engine.storage.rename(ws('d'), ws('ln-dir'), s);
    });
  });

  it('rename a link to a directory away, then write a real directory at its path', async () => {
    // Undoing the rollback must turn the link back into the directory before writing inside:
    // never write through the link (into d/) on the way.
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.rename(ws('ln-dir'), ws('ln-moved'), s);
      await engine.storage.writeFile(ws('ln-dir/m'), 'inside a real directory\n', s);
    });
  });

  it('rename a link to a file away, then write a real directory at its path', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.rename(ws('ln'), ws('ln-moved'), s);
      await engine.storage.writeFile(ws('ln/m'), 'inside a real directory\n', s);
    });
  });

  it('rename a directory, then rename a file out of it and delete the rest', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.storage.rename(ws('d'), ws('d-renamed'), s);
      await engine.storage.rename(ws('d-renamed/inner.txt'), ws('inner-out.txt'), s);
      await engine.storage.delete(ws('d-renamed'), { ...s, recursive: true });
    });
  });

  it('symlinks: created by the host, replaced by a file, deleted (to a dir and dangling)', async () => {
    await roundTrip(sandbox, engine, async () => {
      // A host that writes files itself announces the change first.
      expect(await engine.beforeMutate({ ...s, op: 'write', uri: ws('ln-new') })).toEqual({ recorded: true });
      await symlink('B', join(sandbox.workspace, 'ln-new'));
      await engine.storage.rename(ws('B'), ws('ln'), s);
      await engine.storage.delete(ws('ln-dir'), s);
      await engine.storage.delete(ws('dangling'), s);
    });
  });

  it('a file replaced by a symlink (by the host) comes back as the file', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.beforeMutate({ ...s, op: 'write', uri: ws('A') });
      await rm(join(sandbox.workspace, 'A'));
      await symlink('B', join(sandbox.workspace, 'A'));
    });
  });

  it('a path that ends where it began is dropped: nothing to roll back, no rollback turn', async () => {
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('tmpfile'), 'scratch', s);
      await engine.storage.delete(ws('tmpfile'), s);
      await engine.storage.writeFile(ws('A'), 'changed', s);
      await engine.storage.writeFile(ws('A'), 'A original\n', s);
      await engine.storage.mkdir(ws('scratch/dir'), s);
      await engine.storage.delete(ws('scratch'), { ...s, recursive: true });
    });
    assertSameTree(start, await sandbox.tree());
    const manifest = engine.getManifest(turnId);
    expect(manifest.turn.fileCount).toBe(0);
    expect(manifest.files).toEqual([]);
    const result = await engine.rollback(turnId);
    expect(result).toMatchObject({ ok: true, rollbackTurnId: null, errors: [] });
    assertSameTree(start, await sandbox.tree());
  });

  it('a host write announced by beforeMutate, then written by the host, rolls back', async () => {
    await roundTrip(sandbox, engine, async () => {
      await engine.beforeMutate({ ...s, op: 'write', uri: ws('A') });
      await writeFile(join(sandbox.workspace, 'A'), 'host wrote this\n');
    });
  });
});
