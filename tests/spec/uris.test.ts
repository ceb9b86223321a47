// The URI grammar: only canonical `<root>:/<posix path>` inside a known root is accepted;
// everything else is refused with BAD_URI before anything is touched or recorded.
import { beforeEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Engine } from '../../server/engine/api.js';
import { expectCode, makeSandbox, plant, runTurn, who, ws, type Sandbox } from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';

let sandbox: Sandbox;
let engine: Engine;
const s = who();

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { a: 'a0\n', 'd/b': 'b0\n', café: 'nfc\n' });
  engine = await sandbox.open();
});

const BAD: [string, string][] = [
  ['dot segment', 'workspace:/./a'],
  ['dot-dot segment', 'workspace:/d/../a'],
  ['escape with dot-dot', 'workspace:/../outside/x'],
  ['empty segment', 'workspace:/d//b'],
  ['double slash after the root', 'workspace://a'],
  ['trailing slash', 'workspace:/d/'],
  ['backslash', 'workspace:/d\\b'],
  ['NUL', 'workspace:/a\u0000b'],
  ['unknown root', 'nowhere:/a'],
  ['no slash after the root', 'workspace:a'],
  ['no root', '/a'],
  ['a plain path', 'a'],
  ['empty', ''],
  ['upper-case root', 'Workspace:/a'],
];

describe('BAD_URI: non-canonical or unknown URIs change nothing', () => {
  it.each(BAD)('%s (%j)', async (_label, uri) => {
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, async () => {
      await expectCode(engine.storage.writeFile(uri, 'x', s), 'BAD_URI');
      await expectCode(engine.storage.delete(uri, { ...s, recursive: true }), 'BAD_URI');
      await expectCode(engine.storage.mkdir(uri, s), 'BAD_URI');
      await expectCode(engine.storage.rename(ws('a'), uri, s), 'BAD_URI');
      await expectCode(engine.storage.move(uri, ws('moved'), s), 'BAD_URI');
      await expectCode(engine.storage.readFile(uri), 'BAD_URI');
    });
    assertSameTree(start, await sandbox.tree());
    expect(engine.getManifest(turnId).entries).toEqual([]);
  });
});

describe("the engine's own store", () => {
  it('is never reachable, even through a root whose directory holds it', async () => {
    await engine.close();
    engine = await sandbox.open({ roots: [{ name: 'state', kind: 'custom', path: sandbox.dataDir }] });
    const turnId = await runTurn(engine, async () => {
      for (const uri of ['state:/store', 'state:/store/x', 'state:/store/blobs/ab/cd']) {
        await expectCode(engine.storage.writeFile(uri, 'x', s), 'BAD_URI');
        await expectCode(engine.storage.delete(uri, { ...s, recursive: true }), 'BAD_URI');
        await expectCode(engine.storage.readFile(uri), 'BAD_URI');
      }
      await expectCode(engine.storage.move(ws('a'), 'state:/store/a', s), 'BAD_URI');
    });
    expect(engine.getManifest(turnId).entries).toEqual([]);
    expect(engine.listTurns('s1').length).toBeGreaterThan(0);
  });
});

describe('canonical URIs', () => {
  it('answers carry canonical URIs', async () => {
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws('café'), 'changed\n', s);
      await engine.storage.writeFile(ws('d/b'), 'b1\n', s);
    });
    expect(
      engine
        .getManifest(turnId)
        .files.map((f) => f.uri)
        .sort(),
    ).toEqual([ws('café'), ws('d/b')].sort());
  });

  it('names are taken as they are on disk: an NFD name and its NFC twin are two files, both undone', async () => {
    const nfc = 'caf\u00e9.txt';
    const nfd = 'cafe\u0301.txt';
    await plant(sandbox.workspace, { [nfc]: 'nfc one\n', [nfd]: 'nfd one\n' });
    const start = await sandbox.tree();
    const turnId = await runTurn(engine, async () => {
      await engine.storage.writeFile(ws(nfd), 'nfd two\n', s);
      await engine.storage.delete(ws(nfc), s);
    });
    expect(
      engine
        .getManifest(turnId)
        .files.map((f) => f.uri)
        .sort(),
    ).toEqual([ws(nfc), ws(nfd)].sort());
    expect(await readFile(join(sandbox.workspace, nfd), 'utf8')).toBe('nfd two\n');
    expect((await engine.rollback(turnId)).ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
  });

  it('unknown turns and files are typed errors', async () => {
    const turnId = await runTurn(engine, () => engine.storage.writeFile(ws('a'), 'a1\n', s));
    await expectCode(engine.rollback('t_does_not_exist'), 'TURN_NOT_FOUND');
    await expectCode(engine.preview('t_does_not_exist'), 'TURN_NOT_FOUND');
    await expectCode(
      Promise.resolve().then(() => engine.getManifest('t_does_not_exist')),
      'TURN_NOT_FOUND',
    );
    await expectCode(engine.diff(turnId, ws('d/b')), 'FILE_NOT_FOUND');
    await expectCode(engine.storage.readFile(ws('missing')), 'FILE_NOT_FOUND');
  });
});
