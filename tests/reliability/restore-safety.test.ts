// Restore safety: a rollback writes only the paths its manifest names; a symlink or a
// directory planted where a file is to be restored is refused for that path and never
// followed; a blob whose bytes no longer match its hash is never written back.
import { mkdir, readFile, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { FaultController } from './fault-controller.testutil.js';
import { damageContent } from '../../server/testkit/contents.js';
import { isMutatingOp, openTestEngine } from './open-engine.testutil.js';
import { makeSandbox, type Sandbox } from '../../server/testkit/sandbox.js';
import { agentEdits, SESSION, START_FILES } from './scenarios.testutil.js';
import { newTally, writeTally } from './tally.testutil.js';
import { sha256, snapshotTree } from '../../server/testkit/tree.js';
import { treeDiff } from '../../server/testkit/tree-diff.js';

const tally = newTally();
afterAll(() => writeTally('restore safety', tally));

let sandbox: Sandbox;
let engine: Engine;
afterEach(async () => {
  await engine?.close().catch(() => {});
  await sandbox?.cleanup();
});

async function setup(controller?: FaultController): Promise<void> {
  sandbox = await makeSandbox({ ...START_FILES, 'sub/x.txt': 'sub x v1\n' });
  engine = await openTestEngine(sandbox, { controller });
  tally.cases++;
}

async function turn(edit: () => Promise<void>): Promise<string> {
  const { turnId } = await engine.input({
    sessionId: SESSION,
    platform: 'webui',
    sessionType: 'chat',
    content: 'edit',
  });
  await edit();
  await engine.turnEnd({ sessionId: SESSION });
  return turnId!;
}

const write = (rel: string, text: string) =>
  engine.storage.writeFile(`workspace:/${rel}`, text, { sessionId: SESSION });

describe('restore safety', () => {
  it('a rollback writes only inside the paths its manifest names', async () => {
    const controller = new FaultController();
    controller.pause();
    await setup(controller);
    const start = await snapshotTree(sandbox.workspace);
    const outsideBefore = await snapshotTree(sandbox.outside);
    const turnId = await turn(() => agentEdits(engine, SESSION));
    const named = new Set(
      engine
        .getManifest(turnId)
        .entries.flatMap((e) => [e.uri, e.to].filter(Boolean))
        .map((u) => join(sandbox.workspace, u!.slice('workspace:/'.length))),
    );
    controller.count();
    const result = await engine.rollback(turnId);
    controller.pause();
    expect(result.ok).toBe(true);
    expect(controller.log.filter((o) => isMutatingOp(o.op)).length).toBeGreaterThan(0);
    const strays = controller.log
      .filter((o) => isMutatingOp(o.op))
      .map((o) => o.path)
      .filter(
        (p) =>
          !p.startsWith(sandbox.dataDir + '/') &&
          !named.has(p) &&
          ![...named].some((n) => isTempBeside(p, n) || n.startsWith(p + '/')),
      );
    expect(strays).toEqual([]);
    expect(treeDiff(start, await snapshotTree(sandbox.workspace))).toEqual([]);
    expect(treeDiff(outsideBefore, await snapshotTree(sandbox.outside))).toEqual([]);
  });

  it('a selective rollback touches only the chosen path', async () => {
    await setup();
    const turnId = await turn(() => agentEdits(engine, SESSION));
    const afterTurn = await snapshotTree(sandbox.workspace);
    const result = await engine.rollback(turnId, { uris: ['workspace:/old/c.txt'] });
    expect(result.restored).toEqual(['workspace:/old/c.txt']);
    const changed = treeDiff(afterTurn, await snapshotTree(sandbox.workspace)).map((d) => d.path);
    expect(changed).toEqual(['old/c.txt']);
  });

  it('a symlink planted where a file is restored is refused and never followed', async () => {
    await setup();
    const turnId = await turn(async () => {
      await write('a.txt', 'a v2\n');
      await engine.storage.delete('workspace:/old/c.txt', { sessionId: SESSION });
    });
    await unlink(join(sandbox.workspace, 'a.txt'));
    await symlink(join(sandbox.outside, 'secret.txt'), join(sandbox.workspace, 'a.txt'));
    await symlink(join(sandbox.outside, 'secret.txt'), join(sandbox.workspace, 'old/c.txt'));
    const outsideBefore = await snapshotTree(sandbox.outside);
    const result = await engine.rollback(turnId, { force: true });
    expect(result.ok).toBe(false);
    expect(codesByUri(result.errors)).toEqual({ 'workspace:/a.txt': 'SYMLINK', 'workspace:/old/c.txt': 'SYMLINK' });
    expect(treeDiff(outsideBefore, await snapshotTree(sandbox.outside))).toEqual([]);
    const ws = await snapshotTree(sandbox.workspace);
    expect(ws.get('a.txt')?.type).toBe('symlink');
    expect(ws.get('old/c.txt')?.type).toBe('symlink');
  });

  it('a symlinked parent directory planted before a restore is not followed out of the workspace', async () => {
    await setup();
    await writeFile(join(sandbox.outside, 'x.txt'), 'outside x\n');
    const turnId = await turn(() => write('sub/x.txt', 'sub x v2\n'));
    await rm(join(sandbox.workspace, 'sub'), { recursive: true });
    await symlink(sandbox.outside, join(sandbox.workspace, 'sub'));
    const outsideBefore = await snapshotTree(sandbox.outside);
    const result = await engine.rollback(turnId, { force: true }).catch((e: { code?: string }) => ({ thrown: e.code }));
    expect(treeDiff(outsideBefore, await snapshotTree(sandbox.outside))).toEqual([]);
    if (!('thrown' in result)) expect(result.ok).toBe(false);
  });

  it('a directory planted where a file is restored is refused and left as it is', async () => {
    await setup();
    const turnId = await turn(() => write('a.txt', 'a v2\n'));
    await unlink(join(sandbox.workspace, 'a.txt'));
    await mkdir(join(sandbox.workspace, 'a.txt'));
    await writeFile(join(sandbox.workspace, 'a.txt', 'inner.txt'), 'somebody else\n');
    const result = await engine.rollback(turnId, { force: true });
    expect(result.ok).toBe(false);
    expect(codesByUri(result.errors)).toEqual({ 'workspace:/a.txt': 'SYMLINK' });
    expect(await readFile(join(sandbox.workspace, 'a.txt', 'inner.txt'), 'utf8')).toBe('somebody else\n');
  });

  it('a blob whose bytes do not match its hash is never written back', async () => {
    await setup();
    const original = START_FILES['a.txt'];
    const turnId = await turn(() => write('a.txt', 'a v2\n'));
    damageContent(sandbox.dataDir, sha256(original), 'overwrite');
    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(false);
    expect(codesByUri(result.errors)).toEqual({ 'workspace:/a.txt': 'UNRESTORABLE' });
    expect(await readFile(join(sandbox.workspace, 'a.txt'), 'utf8')).toBe('a v2\n');
  });

  it('a missing blob is reported unrestorable and the file is left as it is', async () => {
    await setup();
    const turnId = await turn(() => write('src/b.ts', 'b v2\n'));
    damageContent(sandbox.dataDir, sha256(START_FILES['src/b.ts']), 'remove');
    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(false);
    expect(codesByUri(result.errors)).toEqual({ 'workspace:/src/b.ts': 'UNRESTORABLE' });
    expect(await readFile(join(sandbox.workspace, 'src/b.ts'), 'utf8')).toBe('b v2\n');
  });
});

function codesByUri(errors: { uri: string; code: string }[]): Record<string, string> {
  return Object.fromEntries(errors.map((e) => [e.uri, e.code]));
}

/** An atomic write's temp file sits in the same directory as the file it replaces. */
function isTempBeside(path: string, named: string): boolean {
  return dirname(path) === dirname(named) && /tmp/i.test(path.slice(dirname(path).length));
}
