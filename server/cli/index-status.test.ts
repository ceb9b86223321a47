// `turnback init` registers the workspace with the service it starts, whose index is then built in
// the background; `turnback status` says how far a build is, or why there is none. As processes, on
// a temp HOME and state dir, port 0.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexBuildStatus, Workspace } from '../protocol.js';
import { runCli } from './test/spawn-cli.js';

let root: string;
let env: NodeJS.ProcessEnv;
let project: string;

async function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = runCli(args, env);
  const { code } = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-index-')));
  project = path.join(root, 'home', 'project');
  await mkdir(path.join(project, '.git'), { recursive: true });
  env = { HOME: path.join(root, 'home'), XDG_STATE_HOME: path.join(root, 'state'), TURNBACK_PORT: '0' };
});
afterEach(async () => {
  await cli('stop');
  await rm(root, { recursive: true, force: true });
});

describe('the index build from the terminal', { timeout: 120_000 }, () => {
  it('init starts the service and registers the workspace, whose index is built before any hook', async () => {
    for (let i = 0; i < 200; i++) {
      await mkdir(path.join(project, `src${i % 10}`), { recursive: true });
      await writeFile(path.join(project, `src${i % 10}`, `m${i}.ts`), `export const n${i} = ${i};\n`);
    }
    const init = await cli('init', 'claude-code', '--workspace', project);
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(
      new RegExp(
        `Registered ${project.replace(/[.]/g, '\\.')} with your turnback service \\(pid \\d+\\): turnback (already knows every file|is reading its files)`,
      ),
    );

    let index: IndexBuildStatus | undefined;
    for (let tries = 0; tries < 100 && index?.state !== 'whole'; tries++) {
      const status = JSON.parse((await cli('status', '--json')).stdout) as { workspaces: Workspace[] };
      index = status.workspaces[0]?.index;
    }
    // The 200 files and the settings file init wrote there.
    expect(index).toMatchObject({ state: 'whole', filesIndexed: 201, percent: 100 });
    // Whole: the line says nothing more than it always did.
    expect((await cli('status')).stdout).toMatch(
      /0 sessions, [0-9.]+ (B|KiB|MiB) \(contents [0-9.]+ (B|KiB|MiB) of a [0-9.]+ GiB budget\), recording\n$/,
    );
  });

  it('status says how far a build is, and why a workspace has none', async () => {
    const workspaces: Workspace[] = [
      workspace('big', { state: 'building', filesFound: 41_200, filesIndexed: 25_956, bytesStored: 1, percent: 63 }),
      workspace('locked', {
        state: 'failed',
        filesFound: 0,
        filesIndexed: 0,
        bytesStored: 0,
        percent: 0,
        reason: 'EACCES: permission denied',
      }),
      {
        ...workspace('mono', { state: 'whole', filesFound: 9, filesIndexed: 9, bytesStored: 9, percent: 100 }),
        watcher: { state: 'unavailable', reason: 'the inotify watch limit is reached (fs.inotify.max_user_watches)' },
      },
      {
        ...workspace('fine', { state: 'whole', filesFound: 9, filesIndexed: 9, bytesStored: 9, percent: 100 }),
        watcher: { state: 'watching', misses: 0 },
      },
      {
        ...workspace('blind', { state: 'whole', filesFound: 9, filesIndexed: 9, bytesStored: 9, percent: 100 }),
        watcher: { state: 'degraded', reason: 'the root /w/blind is gone', misses: 2 },
      },
    ];
    const server = await fakeService(workspaces);
    try {
      const status = await cli('status');
      expect(status.code).toBe(0);
      expect(status.stdout).toContain('  big  /w/big  0 sessions, 0 B, recording, indexing 41,200 files…, 63%\n');
      expect(status.stdout).toContain(
        '  locked  /w/locked  0 sessions, 0 B, recording, index not built: EACCES: permission denied (its first command scans the whole tree)\n',
      );
      // A watcher that failed is said (every command then walks the tree); one that works is not.
      expect(status.stdout).toContain(
        '  mono  /w/mono  0 sessions, 0 B, recording, every command scanned in full: the inotify watch limit is reached (fs.inotify.max_user_watches)\n',
      );
      expect(status.stdout).toContain('  fine  /w/fine  0 sessions, 0 B, recording\n');
      // A degraded watcher and its misses are said too.
      expect(status.stdout).toContain(
        '  blind  /w/blind  0 sessions, 0 B, recording, watcher degraded: the root /w/blind is gone, 2 watcher misses\n',
      );
    } finally {
      // Never left for the stop after each test: its pid is this test's own.
      await rm(path.join(root, 'state', 'turnback', 'service.json'), { force: true });
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

function workspace(name: string, index: IndexBuildStatus): Workspace {
  const id = `${name}-000000000000`;
  return {
    id,
    root: `/w/${name}`,
    name,
    recording: true,
    open: true,
    sessions: 0,
    storeBytes: 0,
    isDefault: false,
    index,
  };
}

/** A service answering `GET /api/workspaces` with `workspaces`, entered in the state dir as this process. */
async function fakeService(workspaces: Workspace[]): Promise<Server> {
  const token = 'a'.repeat(64);
  const server = createServer((request, response) => {
    const ok = request.headers.authorization === `Bearer ${token}` && request.url === '/api/workspaces';
    response.writeHead(ok ? 200 : 404, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(ok ? { workspaces } : { error: { code: 'NOT_FOUND', message: 'no' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const dir = path.join(root, 'state', 'turnback');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // The CLI speaks to the service over service.sock only; the TCP port is the console's.
  const socket = createServer(server.listeners('request')[0] as Parameters<typeof createServer>[1]);
  await new Promise<void>((resolve) => socket.listen(path.join(dir, 'service.sock'), resolve));
  server.once('close', () => socket.close());
  await writeFile(path.join(dir, 'console-token'), `${token}\n`);
  const entry = {
    pid: process.pid,
    port,
    version: '0.0.0',
    startedAt: new Date().toISOString(),
    url: `http://127.0.0.1:${port}/`,
  };
  await writeFile(path.join(dir, 'service.json'), `${JSON.stringify(entry)}\n`);
  return server;
}
