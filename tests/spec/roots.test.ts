// Only tracked roots (workspace, custom) are recorded: untracked roots and the engine's own
// data dir (even inside the workspace) are never recorded, counted, or touched by rollback.
import { createHash } from 'node:crypto';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RootSpec } from '../../server/engine/api.js';
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

const s = who();
let sandbox: Sandbox;
let roots: RootSpec[];

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { a: 'a0\n' });
  roots = [
    { name: 'logs', kind: 'logs', path: join(sandbox.base, 'logs') },
    { name: 'plug', kind: 'pluginData', path: join(sandbox.base, 'plug') },
    { name: 'extra', kind: 'custom', path: join(sandbox.base, 'extra') },
  ];
  for (const root of roots) await mkdir(root.path);
  await writeFile(join(sandbox.base, 'extra', 'e'), 'e0\n');
});

const readAt = (...parts: string[]) => readFile(join(...parts), 'utf8');

describe('tracked and untracked roots', () => {
  it('untracked roots are never recorded or counted, and rollback never touches them', async () => {
    const engine = await sandbox.open({ roots });
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('a'), 'a1\n', s);
      await engine.storage.writeFile('data:/d.txt', 'data\n', s);
      await engine.storage.writeFile('tmp:/t.txt', 'tmp\n', s);
      await engine.storage.writeFile('logs:/l.log', 'log\n', s);
      await engine.storage.writeFile('plug:/p.json', '{}', s);
      await engine.storage.writeFile('extra:/e', 'e1\n', s);
    });
    const manifest = engine.getManifest(turnId);
    expect(manifest.files.map((f) => f.uri).sort()).toEqual(['extra:/e', ws('a')]);
    expect(manifest.entries.every((e) => e.uri.startsWith('workspace:') || e.uri.startsWith('extra:'))).toBe(true);
    expect(manifest.turn.fileCount).toBe(2);

    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(true);
    expect(await readAt(sandbox.workspace, 'a')).toBe('a0\n');
    expect(await readAt(sandbox.base, 'extra', 'e')).toBe('e0\n');
    expect(Buffer.from(await engine.storage.readFile('data:/d.txt')).toString()).toBe('data\n');
    expect(Buffer.from(await engine.storage.readFile('tmp:/t.txt')).toString()).toBe('tmp\n');
    expect(await readAt(sandbox.base, 'logs', 'l.log')).toBe('log\n');
    expect(await readAt(sandbox.base, 'plug', 'p.json')).toBe('{}');
  });

  it('a move between roots records only its tracked end', async () => {
    const engine = await sandbox.open();
    await engine.storage.writeFile('tmp:/incoming', 'from tmp\n', s);
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, async () => {
      await engine.storage.move(ws('a'), 'tmp:/a', s);
      await engine.storage.move('tmp:/incoming', ws('incoming'), s);
    });
    expect(engine.getManifest(turnId).files.every((f) => f.uri.startsWith('workspace:'))).toBe(true);
    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
    expect(Buffer.from(await engine.storage.readFile('tmp:/a')).toString()).toBe('a0\n');
    await expectCode(engine.storage.readFile('tmp:/incoming'), 'FILE_NOT_FOUND');
  });

  it('a data dir inside the workspace is never recorded, counted or reachable from workspace URIs', async () => {
    sandbox = await makeSandbox({ dataInsideWorkspace: '.turnback' });
    await plant(sandbox.workspace, { a: 'a0\n' });
    const engine = await sandbox.open();
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('a'), 'a1\n', s);
      await engine.storage.writeFile('data:/d.txt', 'data\n', s);
      for (const uri of [ws('.turnback/store/x'), ws('.turnback/files/d.txt'), ws('.turnback/new'), ws('.turnback')]) {
        await expectCode(engine.storage.writeFile(uri, 'nope', s), 'BAD_URI');
        await expectCode(engine.storage.delete(uri, { ...s, recursive: true }), 'BAD_URI');
      }
      await expectCode(engine.storage.rename(ws('a'), ws('.turnback/a'), s), 'BAD_URI');
      await expectCode(engine.storage.readFile(ws('.turnback/files/d.txt')), 'BAD_URI');
    });
    const manifest = engine.getManifest(turnId);
    expect(manifest.files.map((f) => f.uri)).toEqual([ws('a')]);
    expect(manifest.turn.fileCount).toBe(1);
    expect(await readAt(sandbox.dataDir, 'files', 'd.txt')).toBe('data\n');
    await engine.rollback(turnId);
    assertSameTree(start, await sandbox.tree());
  });

  it('without a dataDir, the store goes under $XDG_STATE_HOME/turnback/<name>-<hash>, outside the workspace', async () => {
    const previous = process.env.XDG_STATE_HOME;
    process.env.XDG_STATE_HOME = join(sandbox.base, 'state');
    try {
      const engine = await openTracked({ workspace: sandbox.workspace });
      const hash = createHash('sha256')
        .update(await realpath(sandbox.workspace))
        .digest('hex')
        .slice(0, 12);
      expect(engine.dataDir).toBe(join(sandbox.base, 'state', 'turnback', `workspace-${hash}`));
      const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('a'), 'a1\n', s));
      expect((await engine.rollback(turnId)).ok).toBe(true);
      expect(await readAt(sandbox.workspace, 'a')).toBe('a0\n');
      expect([...(await sandbox.tree()).keys()]).toEqual(['a']);
    } finally {
      if (previous === undefined) delete process.env.XDG_STATE_HOME;
      else process.env.XDG_STATE_HOME = previous;
    }
  });

  it('entries of a root whose kind is later changed to an untracked kind are ignored in counts and rollback', async () => {
    let engine = await sandbox.open({ roots });
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('a'), 'a1\n', s);
      await engine.storage.writeFile('extra:/e', 'e1\n', s);
    });
    expect(engine.getManifest(turnId).turn.fileCount).toBe(2);
    await engine.close();

    const demoted = roots.map((r) => (r.name === 'extra' ? { ...r, kind: 'logs' as const } : r));
    engine = await sandbox.open({ roots: demoted });
    const manifest = engine.getManifest(turnId);
    expect(manifest.turn.fileCount).toBe(1);
    expect(manifest.files.map((f) => f.uri)).toEqual([ws('a')]);
    const result = await engine.rollback(turnId);
    expect(result).toMatchObject({ ok: true, errors: [] });
    expect(await readAt(sandbox.workspace, 'a')).toBe('a0\n');
    expect(await readAt(sandbox.base, 'extra', 'e')).toBe('e1\n');
  });
});
