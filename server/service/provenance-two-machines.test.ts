// Two machines, one bare remote: machine 1's service records turns of two hosts (Claude Code and
// Codex hook payloads), links the commits (an agent's shell `git commit`, a person's, an amend, a
// rebase), and the person's own `git push` carries the notes; machine 2's `git fetch`, then
// `turnback explain` / `turnback blame` and its service's commits route show machine 1's turns.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { claudeCodeRoutes } from '../adapters/claude-code/receive/route.js';
import * as p from '../adapters/claude-code/test/payloads.js';
import { openEngine } from '../engine/index.js';
import { readNotes } from '../git/notes.js';
import { startServer, type RunningServer } from '../http/server.js';
import { send } from '../http/test/client.js';
import type { CommitNote, CommitsResponse, Turn } from '../protocol.js';
import { runCli } from '../testkit/spawn.js';
import { keepCommitsLinked } from './commit-links.js';
import { WorkspaceHost } from './host.js';

const TOKEN = 'console-token-0123456789abcdef';
const AGENT = 'agent-token-0123456789abcdef';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Machine {
  env: NodeJS.ProcessEnv;
  clone: string;
  port: number;
  git: (...args: string[]) => string;
}

async function machine(root: string, name: string, remote: string): Promise<Machine> {
  const home = path.join(root, name);
  await mkdir(home);
  const env = { HOME: home, XDG_STATE_HOME: path.join(home, 'state') };
  const clone = path.join(home, 'proj');
  execFileSync('git', ['clone', '-q', remote, clone], { env: { ...process.env, ...env } });
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: clone, env: { ...process.env, ...env }, encoding: 'utf8' }).trim();
  git('config', 'user.name', `person ${name}`);
  git('config', 'user.email', `${name}@example.com`);
  const host = new WorkspaceHost({ env, engineOptions: { scopes: ['claude-code:*', 'codex:*'] }, open: openEngine });
  const server: RunningServer = await startServer({
    source: host,
    port: 0,
    token: TOKEN,
    agentToken: AGENT,
    routes: claudeCodeRoutes(),
    log: { error() {} },
  });
  const stop = keepCommitsLinked(host, () => undefined);
  cleanups.push(async () => {
    stop();
    await server.close();
    await host.close(1_000);
  });
  return { env, clone, port: server.port, git };
}

/** Polls until `check` answers something (the link runs after a turn's end or a reflog change). */
async function until<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 150; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
const noteOf = (m: Machine, sha: string) =>
  until(async () => (await readNotes(m.clone)).get(sha), `the note of ${sha}`);

it('links machine 1 commits to its turns of two hosts and shows them on machine 2 after git fetch', async () => {
  const root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-two-machines-')));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  const remote = path.join(root, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', remote]);
  const one = await machine(root, 'one', remote);
  await writeFile(path.join(one.clone, 'app.txt'), 'p1\np2\n');
  one.git('add', '.');
  one.git('commit', '-qm', 'start');
  one.git('push', '-q', '-u', 'origin', 'main');
  const two = await machine(root, 'two', remote);
  for (const m of [one, two]) {
    const shared = await runCli(['share', 'on'], { cwd: m.clone, env: m.env });
    expect(shared.stdout).toContain('sharing is on for origin');
  }

  const post = (m: Machine, route: string, body: unknown, token = TOKEN) =>
    send(m.port, { method: 'POST', path: route, token, body });
  const get = (m: Machine, route: string) => send(m.port, { path: route, token: TOKEN });
  const claude = { cwd: one.clone, sessionId: 'sess-claude' };
  const hook = (host: string, event: unknown) => post(one, `/api/agent/hook/${host}`, event, AGENT);
  const claudeWrite = async (prompt: string, file: string, text: string) => {
    await hook('claude-code', p.userPromptSubmit(claude, prompt));
    const pre = p.write(claude, path.join(one.clone, file), text);
    await hook('claude-code', pre);
    await writeFile(path.join(one.clone, file), text);
    await hook('claude-code', p.postToolUse(pre));
    await hook('claude-code', p.stop(claude));
  };
  const codex = (event: string, extra: Record<string, unknown> = {}) =>
    hook('codex', {
      session_id: 'sess-codex',
      turn_id: 'turn-1',
      transcript_path: path.join(root, 'none.jsonl'),
      cwd: one.clone,
      hook_event_name: event,
      model: 'gpt-5.5',
      permission_mode: 'bypassPermissions',
      ...extra,
    });

  // Claude Code writes a line; the person writes one; Codex writes two and commits in its shell.
  await claudeWrite('add a1\nwith key sk-abcdefghijklmnopqrstuvwxyz123456', 'app.txt', 'p1\np2\na1\n');
  await appendFile(path.join(one.clone, 'app.txt'), 'person\n');
  await codex('UserPromptSubmit', { prompt: 'add b lines and commit' });
  const command = "printf 'b1\\nb2\\n' >> app.txt && git commit -qam 'codex commit'";
  const bash = { tool_name: 'Bash', tool_input: { command }, tool_use_id: 'call_1' };
  await codex('PreToolUse', bash);
  execFileSync('sh', ['-c', command], { cwd: one.clone, env: { ...process.env, ...one.env } });
  await codex('PostToolUse', { ...bash, tool_response: 'Exit code: 0\n' });
  await codex('Stop', { stop_hook_active: false, last_assistant_message: 'done' });
  const codexCommit = one.git('rev-parse', 'HEAD');
  const first: CommitNote = await noteOf(one, codexCommit);
  expect(first.turns.map((t) => [t.host, t.files])).toEqual([
    ['claude-code', { 'app.txt': '3' }],
    ['codex', { 'app.txt': '5-6' }],
  ]);

  // A turn undone before the commit is in no note; the kept one is.
  await claudeWrite('add d', 'd.txt', 'd\n');
  await claudeWrite('add gone', 'gone.txt', 'gone\n');
  const workspaceId = ((await get(one, '/api/workspaces')).json.workspaces as { id: string }[])[0].id;
  const turns = (await get(one, `/api/workspaces/${workspaceId}/sessions`)).json.sessions as { sessionId: string }[];
  const claudeSession = turns.find((s) => s.sessionId.includes('sess-claude'))!.sessionId;
  const listed = (await get(one, `/api/workspaces/${workspaceId}/sessions/${encodeURIComponent(claudeSession)}/turns`))
    .json.turns as Turn[];
  const gone = listed.find((t) => t.title === 'add gone')!;
  const undo = await post(one, `/api/workspaces/${workspaceId}/turns/${gone.turnId}/rollback`, {});
  expect(undo.status).toBe(200);
  await writeFile(path.join(one.clone, 'readme.txt'), 'by hand\n');
  one.git('add', '-A');
  one.git('commit', '-qm', 'person commit');
  const personCommit = one.git('rev-parse', 'HEAD');
  expect((await noteOf(one, personCommit)).turns.map((t) => t.title)).toEqual(['add d']);

  // An amend and a rebase keep the link.
  one.git('commit', '-q', '--amend', '-m', 'person commit, amended');
  const amended = one.git('rev-parse', 'HEAD');
  expect((await noteOf(one, amended)).turns.map((t) => t.title)).toEqual(['add d']);
  // Another committer date, so the rebased commit differs even within the amend's second.
  execFileSync('git', ['rebase', '-q', '--force-rebase', 'HEAD~1'], {
    cwd: one.clone,
    env: { ...process.env, ...one.env, GIT_COMMITTER_DATE: '2030-01-01T00:00:00Z' },
  });
  const rebased = one.git('rev-parse', 'HEAD');
  expect(rebased).not.toBe(amended);
  expect((await noteOf(one, rebased)).turns.map((t) => t.title)).toEqual(['add d']);

  // No prompt is shared (not opted in): the key in the prompt is nowhere in the notes.
  const allNotes = one.git('log', '--format=%N', '--notes=turnback');
  expect(allNotes).not.toContain('sk-abcdefghij');
  expect(allNotes).not.toContain('"prompt"');
  expect(allNotes).not.toContain('add gone');

  // The person's own push carries the notes; machine 2's own fetch brings them.
  one.git('push', '-q');
  two.git('fetch', '-q');
  two.git('merge', '-q', '--ff-only', 'origin/main');
  const explained = await runCli(['explain', 'HEAD~2..HEAD', '--json'], { cwd: two.clone, env: two.env });
  expect(explained.code).toBe(0);
  const commits = JSON.parse(explained.stdout).commits as {
    subject: string;
    turns: { host: string; title: string }[];
  }[];
  expect(commits.map((c) => [c.subject, c.turns.map((t) => `${t.host}: ${t.title}`)])).toEqual([
    ['person commit, amended', ['claude-code: add d']],
    ['codex commit', ['claude-code: add a1', 'codex: add b lines and commit']],
  ]);
  const blamed = await runCli(['blame', 'app.txt', '--json'], { cwd: two.clone, env: two.env });
  expect(
    (JSON.parse(blamed.stdout).lines as { text: string; turn: { host: string } | null }[]).map((l) => [
      l.text,
      l.turn?.host ?? 'person',
    ]),
  ).toEqual([
    ['p1', 'person'],
    ['p2', 'person'],
    ['a1', 'claude-code'],
    ['person', 'person'],
    ['b1', 'codex'],
    ['b2', 'codex'],
  ]);
  const text = await runCli(['blame', 'app.txt'], { cwd: two.clone, env: two.env });
  expect(text.stdout).toMatch(/codex "add b lines and commit"/);

  // Machine 2's service: the commits with machine 1's turns, none of them local.
  const registered = await post(two, '/api/workspaces', { path: two.clone });
  const id2 = registered.json.workspace.id as string;
  const page = (await get(two, `/api/workspaces/${id2}/commits?limit=2`)).json as CommitsResponse;
  expect(page.repository).toBe(true);
  expect(page.commits.map((c) => c.turns.map((t) => [t.title, t.local]))).toEqual([
    [['add d', false]],
    [
      ['add a1', false],
      ['add b lines and commit', false],
    ],
  ]);
  expect(page.next).toBe(one.git('rev-parse', 'HEAD~2'));
  const mine = (await get(one, `/api/workspaces/${workspaceId}/commits/${codexCommit}`)).json.commit;
  expect(mine.turns.map((t: { local: boolean }) => t.local)).toEqual([true, true]);
}, 120_000);
