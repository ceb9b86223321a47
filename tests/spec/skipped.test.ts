// What cannot be captured (too large, a recursive delete beyond its limits) is refused with
// TOO_LARGE and changes nothing, unless the caller says force: then it happens, is recorded as
// skipped, and is reported by rollback in `errors` — never restored. Excluded paths happen and
// are recorded as skipped.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import {
  expectCode,
  makeSandbox,
  plant,
  runTurn,
  statusOf,
  who,
  ws,
  type Sandbox,
} from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';

let sandbox: Sandbox;
const s = who();
const BIG = 'B'.repeat(200);

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, {
    a: 'a0\n',
    big: BIG,
    'dir/small.txt': 'small\n',
    'dir/big.txt': BIG,
    '.git/config': '[core]\n',
    'node_modules/pkg/index.js': 'module.exports = 1;\n',
    'many/1': '1',
    'many/2': '2',
    'many/3': '3',
    'many/4': '4',
    'many/5': '5',
  });
});

const read = (rel: string) => readFile(join(sandbox.workspace, rel), 'utf8');

describe('skipped paths', () => {
  it('a file over maxFileSize, forced: the write happens, rollback reports TOO_LARGE and never restores it', async () => {
    const engine = await sandbox.open({ maxFileSize: 64 });
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('big'), 'now small\n', { ...s, force: true });
      await engine.storage.writeFile(ws('a'), 'a1\n', s);
    });
    expect(await read('big')).toBe('now small\n');
    const manifest = engine.getManifest(turnId);
    expect(manifest.turn.skippedCount).toBe(1);
    expect(manifest.files.find((f) => f.uri === ws('big'))?.skipped).toBe('too-large');

    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(false);
    expect(result.restored).toEqual([ws('a')]);
    expect(result.errors).toEqual([expect.objectContaining({ uri: ws('big'), code: 'TOO_LARGE' })]);
    expect(await read('big')).toBe('now small\n');
    expect(await read('a')).toBe('a0\n');
    expect(statusOf(engine, turnId)).toBe('partially-rolled-back');
  });

  it('excluded paths (.git/**, node_modules/**): written, skipped, reported as EXCLUDED', async () => {
    const engine = await sandbox.open();
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('.git/config'), '[core]\nbare = true\n', s);
      await engine.storage.writeFile(ws('node_modules/pkg/index.js'), 'changed', s);
    });
    const files = engine.getManifest(turnId).files;
    expect(files.map((f) => f.skipped)).toEqual(['excluded', 'excluded']);
    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(false);
    expect(result.errors.map((e) => [e.uri, e.code]).sort()).toEqual([
      [ws('.git/config'), 'EXCLUDED'],
      [ws('node_modules/pkg/index.js'), 'EXCLUDED'],
    ]);
    expect(await read('.git/config')).toBe('[core]\nbare = true\n');
  });

  it('a recursive delete, forced, restores what it captured and reports the file it could not', async () => {
    const engine = await sandbox.open({ maxFileSize: 64 });
    const turnId = await runTurn(engine, () =>
      engine.storage.delete(ws('dir'), { ...s, recursive: true, force: true }),
    );
    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ uri: ws('dir/big.txt'), code: 'TOO_LARGE' })]);
    expect(await read('dir/small.txt')).toBe('small\n');
    expect(await readdir(join(sandbox.workspace, 'dir'))).toEqual(['small.txt']);
  });

  it('a recursive delete beyond maxDeleteFiles, forced, happens; the directory is skipped too-large', async () => {
    const engine = await sandbox.open({ maxDeleteFiles: 3 });
    const turnId = await runTurn(engine, () =>
      engine.storage.delete(ws('many'), { ...s, recursive: true, force: true }),
    );
    expect((await sandbox.tree()).has('many')).toBe(false);
    const manifest = engine.getManifest(turnId);
    expect(manifest.files.find((f) => f.uri === ws('many'))?.skipped).toBe('too-large');
    expect(manifest.turn.skippedCount).toBeGreaterThan(0);
    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual([expect.objectContaining({ uri: ws('many'), code: 'TOO_LARGE' })]);
    expect((await sandbox.tree()).has('many')).toBe(false);
  });

  it('a recursive delete beyond maxDeleteBytes, forced, is skipped the same way', async () => {
    const engine = await sandbox.open({ maxDeleteBytes: 100 });
    const turnId = await runTurn(engine, () =>
      engine.storage.delete(ws('dir'), { ...s, recursive: true, force: true }),
    );
    expect(engine.getManifest(turnId).files.find((f) => f.uri === ws('dir'))?.skipped).toBe('too-large');
    const result = await engine.rollback(turnId);
    expect(result.errors).toEqual([expect.objectContaining({ uri: ws('dir'), code: 'TOO_LARGE' })]);
  });
});

describe('refusals of what cannot be captured', () => {
  it.each([
    [
      'an overwrite of a file over maxFileSize',
      { maxFileSize: 64 },
      (e: Engine) => e.storage.writeFile(ws('big'), 'now small\n', s),
      ws('big'),
    ],
    [
      'a delete of a file over maxFileSize',
      { maxFileSize: 64 },
      (e: Engine) => e.storage.delete(ws('big'), s),
      ws('big'),
    ],
    [
      'a recursive delete holding a file over maxFileSize',
      { maxFileSize: 64 },
      (e: Engine) => e.storage.delete(ws('dir'), { ...s, recursive: true }),
      ws('dir/big.txt'),
    ],
    [
      'a recursive delete beyond maxDeleteFiles',
      { maxDeleteFiles: 3 },
      (e: Engine) => e.storage.delete(ws('many'), { ...s, recursive: true }),
      ws('many'),
    ],
    [
      'a recursive delete beyond maxDeleteBytes',
      { maxDeleteBytes: 100 },
      (e: Engine) => e.storage.delete(ws('dir'), { ...s, recursive: true }),
      ws('dir'),
    ],
    [
      'a rename over a file over maxFileSize',
      { maxFileSize: 64 },
      (e: Engine) => e.storage.rename(ws('a'), ws('big'), s),
      ws('big'),
    ],
    [
      'a move of a directory beyond maxDeleteFiles',
      { maxDeleteFiles: 3 },
      (e: Engine) => e.storage.move(ws('many'), ws('elsewhere/many'), s),
      ws('many'),
    ],
  ] as const)('%s is refused with TOO_LARGE and changes nothing', async (_label, options, change, uri) => {
    const engine = await sandbox.open(options);
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, async () => {
      const refused = await expectCode(change(engine), 'TOO_LARGE');
      expect(refused.details).toMatchObject({ uri, size: expect.any(Number), limit: expect.any(Number) });
    });
    assertSameTree(start, await sandbox.tree());
    expect(engine.getManifest(turnId).files).toEqual([]);
  });

  it('outside a turn nothing is recorded, so nothing is refused', async () => {
    const engine = await sandbox.open({ maxFileSize: 64 });
    await engine.storage.writeFile(ws('big'), 'now small\n', s);
    expect(await read('big')).toBe('now small\n');
  });

  it('before-mutate of such a path answers skipped (the host decides) and records it as skipped', async () => {
    const engine = await sandbox.open({ maxFileSize: 64 });
    const turnId = await runTurn(engine, async () => {
      expect(await engine.beforeMutate({ ...s, op: 'write', uri: ws('big') })).toEqual({
        recorded: false,
        skipped: 'too-large',
      });
      await writeFile(join(sandbox.workspace, 'big'), 'the host wrote it anyway\n');
    });
    expect(engine.getManifest(turnId).files).toEqual([
      expect.objectContaining({ uri: ws('big'), skipped: 'too-large' }),
    ]);
  });
});
