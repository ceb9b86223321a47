// Links planted between turnback's steps: a hard link from a workspace file to an outside file
// is never chmod-ed through (the rollback replaces the path with a new inode), and crash
// recovery never removes a temp-named file through a symlink planted where its temp files were.
import { link, lstat, mkdir, readdir, readFile, rename, symlink, unlink, writeFile, chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../server/engine/api.js';
import { EngineFs, openEngine } from '../../server/engine/index.js';
import { abandonEngine, openTestEngine } from './open-engine.testutil.js';
import { makeSandbox, type Sandbox } from '../../server/testkit/sandbox.js';
import { SESSION } from './scenarios.testutil.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
afterAll(() => writeTally('planted links', tally));

let sandbox: Sandbox | null = null;
let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close().catch(() => {});
  await sandbox?.cleanup();
  engine = null;
  sandbox = null;
});

const TOOL = '#!/bin/sh\necho tool\n';

describe('planted links', () => {
  it('a rollback that only fixes a mode replaces a hard-linked file instead of chmod-ing the outside file', async () => {
    sandbox = await makeSandbox({ 'tool.sh': TOOL });
    const outsideTool = join(sandbox.outside, 'tool');
    await writeFile(outsideTool, TOOL);
    await chmod(outsideTool, 0o4755);
    engine = await openTestEngine(sandbox, {});
    const inside = join(sandbox.workspace, 'tool.sh');
    const { turnId } = await engine.input({
      sessionId: SESSION,
      platform: 'webui',
      sessionType: 'chat',
      content: 'make it setuid',
    });
    const { execId } = await engine.exec({ sessionId: SESSION, tool: 'Bash', command: 'chmod 4755 tool.sh' });
    await chmod(inside, 0o4755);
    await engine.execEnd({ sessionId: SESSION, execId: execId! });
    await engine.turnEnd({ sessionId: SESSION });
    // Same bytes and mode as the turn left: no conflict, only the mode to fix, on an inode shared with outside.
    await unlink(inside);
    await link(outsideTool, inside);

    const result = await engine.rollback(turnId!);
    tally.cases++;

    expect(result.errors).toEqual([]);
    expect(result.restored).toEqual(['workspace:/tool.sh']);
    const [now, outside] = [await lstat(inside), await lstat(outsideTool)];
    expect(outside.mode & 0o7777).toBe(0o4755);
    expect(now.mode & 0o7777).toBe(0o644);
    expect(now.ino).not.toBe(outside.ino);
    expect(now.nlink).toBe(1);
    expect(await readFile(inside, 'utf8')).toBe(TOOL);
  });

  it('crash recovery leaves alone a temp-named file reached through a symlink planted where the temp files were', async () => {
    sandbox = await makeSandbox({ 'sub/x.txt': 'x v1\n' });
    // The engine freezes at the rename of a captured write: its temp file stays, named in the store.
    let armed = false;
    let frozen = false;
    const fs = new EngineFs({
      beforeOp: (op, p) => {
        if (frozen) return new Promise<void>(() => {});
        if (armed && op === 'rename' && p.includes('.turnback-tmp-')) {
          frozen = true;
          return new Promise<void>(() => {});
        }
      },
    });
    engine = await openEngine({
      workspace: sandbox.workspace,
      dataDir: sandbox.dataDir,
      scopes: ['*'],
      keepSessions: 0,
      fs,
    });
    await engine.input({ sessionId: SESSION, platform: 'webui', sessionType: 'chat', content: 'edit' });
    await engine.storage.writeFile('workspace:/sub/y.txt', 'y\n', { sessionId: SESSION });
    armed = true;
    void engine.storage.writeFile('workspace:/sub/x.txt', 'x v2\n', { sessionId: SESSION });
    while (!frozen) await new Promise((r) => setTimeout(r, 5));
    const temps = (await readdir(join(sandbox.workspace, 'sub'))).filter((n) => n.startsWith('.turnback-tmp-'));
    expect(temps).toHaveLength(1);
    await abandonEngine(sandbox, engine);
    engine = null;

    // Planted: `sub` now leads outside, where the person has a file of the very same name, and another temp-like one.
    await rename(join(sandbox.workspace, 'sub'), join(sandbox.workspace, 'sub-moved'));
    await symlink(sandbox.outside, join(sandbox.workspace, 'sub'));
    const planted = [temps[0], '.turnback-tmp-1-000000000000'];
    for (const name of planted) await writeFile(join(sandbox.outside, name), "the person's own file\n");
    await mkdir(join(sandbox.outside, 'nested'));

    engine = await openTestEngine(sandbox, {});
    tally.cases++;

    for (const name of planted)
      expect(await readFile(join(sandbox.outside, name), 'utf8')).toBe("the person's own file\n");
    // Once the folder is real again, the next open removes the leftover from it.
    await engine.close();
    engine = null;
    await unlink(join(sandbox.workspace, 'sub'));
    await rename(join(sandbox.workspace, 'sub-moved'), join(sandbox.workspace, 'sub'));
    engine = await openTestEngine(sandbox, {});
    expect((await readdir(join(sandbox.workspace, 'sub'))).filter((n) => n.startsWith('.turnback-tmp-'))).toEqual([]);
  });
});
