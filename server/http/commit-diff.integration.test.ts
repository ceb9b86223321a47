// GET /api/commits/:sha/diff on a real repository behind the real server: each side read from
// git's objects (added, deleted, root, binary, too large, a symlink as its target text), and
// every refusal (a bad sha or path, an unknown commit, a path in neither side, no repository).
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine/api.js';
import { openEngine } from '../engine/index.js';
import type { CommitFileDiffResponse } from '../protocol.js';
import { startServer, type RunningServer } from './server.js';
import { send } from './test/client.js';

const TOKEN = 'console-token';
const AGENT = 'agent-token';
const SECRET = 'TOP SECRET outside the workspace\n';
let root: string;
let workspace: string;
let engine: Engine;
let server: RunningServer;

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', ...args], {
    cwd: workspace,
    encoding: 'utf8',
  }).trim();

async function serve(): Promise<void> {
  engine = await openEngine({ workspace, dataDir: path.join(root, 'data'), scopes: ['webui:*'] });
  server = await startServer({
    engine,
    port: 0,
    token: TOKEN,
    agentToken: AGENT,
    distDir: path.join(root, 'no-dist'),
    log: { info() {}, error() {} },
  });
}

const diff = (sha: string, file: string, token = TOKEN) =>
  send(server.port, { path: `/api/commits/${sha}/diff?path=${encodeURIComponent(file)}`, token });

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'turnback-commit-diff-'));
  workspace = path.join(root, 'ws');
  await mkdir(workspace);
  await writeFile(path.join(root, 'secret.txt'), SECRET);
});

afterEach(async () => {
  await server?.close();
  await engine?.close();
  await rm(root, { recursive: true, force: true });
});

describe('GET /api/commits/:sha/diff', () => {
  let first: string;
  let second: string;
  beforeEach(async () => {
    git('init', '-q', '-b', 'main');
    await mkdir(path.join(workspace, 'src'));
    await writeFile(path.join(workspace, 'src/greet.ts'), 'one\ntwo\n');
    await writeFile(path.join(workspace, 'gone.txt'), 'bye\n');
    await writeFile(path.join(workspace, 'pic.bin'), Buffer.from([0x89, 0x50, 0, 1, 2, 0, 3]));
    git('add', '.');
    git('commit', '-qm', 'first');
    first = git('rev-parse', 'HEAD');
    await writeFile(path.join(workspace, 'src/greet.ts'), 'one\nTWO\nthree\n');
    await writeFile(path.join(workspace, 'new.txt'), 'fresh\n');
    await writeFile(path.join(workspace, 'big.txt'), 'x'.repeat(1100 * 1024));
    await rm(path.join(workspace, 'gone.txt'));
    // Links out of the workspace: to a file, and to a folder a path could try to pass through.
    await symlink('../secret.txt', path.join(workspace, 'escape'));
    await symlink('..', path.join(workspace, 'up'));
    git('add', '-A');
    git('commit', '-qm', 'second');
    second = git('rev-parse', 'HEAD');
    await serve();
  });

  it('answers a modified, an added and a deleted file from git, and a root commit without a parent', async () => {
    const modified = await diff(second.slice(0, 8), 'src/greet.ts');
    expect(modified.status).toBe(200);
    expect(modified.json as CommitFileDiffResponse).toEqual({
      sha: second,
      parent: first,
      path: 'src/greet.ts',
      before: { exists: true, type: 'file', binary: false, tooLarge: false, size: 8, text: 'one\ntwo\n' },
      after: { exists: true, type: 'file', binary: false, tooLarge: false, size: 14, text: 'one\nTWO\nthree\n' },
    });
    // What is on disk now plays no part: the commit's own objects answer.
    await writeFile(path.join(workspace, 'src/greet.ts'), 'changed on disk since\n');
    expect((await diff(second, 'src/greet.ts')).json.after.text).toBe('one\nTWO\nthree\n');

    const added = (await diff(second, 'new.txt')).json as CommitFileDiffResponse;
    expect(added.before).toEqual({ exists: false, binary: false, tooLarge: false, size: 0, text: null });
    expect(added.after).toMatchObject({ exists: true, text: 'fresh\n' });

    const deleted = (await diff(second, 'gone.txt')).json as CommitFileDiffResponse;
    expect(deleted.before).toMatchObject({ exists: true, text: 'bye\n' });
    expect(deleted.after).toMatchObject({ exists: false, text: null });

    const rootCommit = (await diff(first, 'src/greet.ts')).json as CommitFileDiffResponse;
    expect(rootCommit).toMatchObject({
      sha: first,
      parent: null,
      before: { exists: false },
      after: { text: 'one\ntwo\n' },
    });
  });

  it('sends no text for a binary side or one over 1 MiB', async () => {
    expect((await diff(first, 'pic.bin')).json.after).toEqual({
      exists: true,
      type: 'file',
      binary: true,
      tooLarge: false,
      size: 7,
      text: null,
    });
    expect((await diff(second, 'big.txt')).json.after).toEqual({
      exists: true,
      type: 'file',
      binary: false,
      tooLarge: true,
      size: 1100 * 1024,
      text: null,
    });
  });

  it('shows a symlink as the target git stores, never what it points at', async () => {
    const link = await diff(second, 'escape');
    expect(link.status).toBe(200);
    expect(link.json.after).toEqual({
      exists: true,
      type: 'symlink',
      binary: false,
      tooLarge: false,
      size: '../secret.txt'.length,
      text: '../secret.txt',
    });
    expect(link.text).not.toContain('TOP SECRET');
    // A path through a link to a folder outside is no path of the commit.
    const through = await diff(second, 'up/secret.txt');
    expect([through.status, through.json.error.code]).toEqual([404, 'FILE_NOT_FOUND']);
    expect(through.text).not.toContain('TOP SECRET');
  });

  it('refuses a bad sha or path, an unknown commit, a path in neither side, and the agent token', async () => {
    for (const sha of ['zzzz', 'HEAD', 'abc', `${'a'.repeat(40)}..HEAD`]) {
      const answer = await diff(sha, 'src/greet.ts');
      expect([answer.status, answer.json.error.code], sha).toEqual([400, 'BAD_REQUEST']);
    }
    for (const bad of [
      '../etc/passwd',
      '/etc/passwd',
      'src//greet.ts',
      'src/',
      '',
      'src/greet.ts\0x',
      '../secret.txt',
    ]) {
      const answer = await diff(second, bad);
      expect([answer.status, answer.json.error.code], JSON.stringify(bad)).toEqual([400, 'BAD_REQUEST']);
    }
    const missingPath = await send(server.port, { path: `/api/commits/${second}/diff`, token: TOKEN });
    expect([missingPath.status, missingPath.json.error.code]).toEqual([400, 'BAD_REQUEST']);
    const unknown = await diff('deadbeef'.repeat(5), 'src/greet.ts');
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'NOT_FOUND']);
    for (const absent of ['nope.txt', 'src', 'new.txt/x']) {
      const answer = await diff(second, absent);
      expect([answer.status, answer.json.error.code], absent).toEqual([404, 'FILE_NOT_FOUND']);
    }
    // new.txt is not in the root commit or before it.
    expect((await diff(first, 'new.txt')).json.error.code).toBe('FILE_NOT_FOUND');
    expect((await diff(second, 'src/greet.ts', AGENT)).status).toBe(401);
    // The blame route refuses the same paths (one check serves both).
    const blame = await send(server.port, { path: '/api/blame?path=..%2Fsecret.txt', token: TOKEN });
    expect([blame.status, blame.json.error.code]).toEqual([400, 'BAD_REQUEST']);
  });
});

it('answers 404 NOT_FOUND for a workspace in no git repository', async () => {
  await serve();
  const answer = await diff('a'.repeat(40), 'x.txt');
  expect([answer.status, answer.json.error.code]).toEqual([404, 'NOT_FOUND']);
  expect(answer.json.error.message).toBe('the workspace is not a git repository');
});
