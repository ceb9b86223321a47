// bin/turnback-hook (sh + curl) end to end: a real server, the installed script run as Claude
// Code runs it. Where the fast path must be the one that worked, the Node fallback is
// pointed at nothing (TURNBACK_NODE), so only the sh path can have recorded anything.
import { spawnSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest, Message, Session, Turn } from '../../../protocol.js';
import * as p from '../test/payloads.js';
import { startHookTestServer, type HookTestServer } from '../test/server.js';
import { installShHook, runShHook, toolPath } from '../test/sh-hook.js';

let t: HookTestServer;
let hookBin: string;
let c: { cwd: string; transcriptPath: string };
const NO_NODE = { TURNBACK_NODE: '/nonexistent/node' };

beforeEach(async () => {
  // A space in the workspace, so in every cwd and path the hook sees.
  t = await startHookTestServer({ workspaceName: 'my project' });
  hookBin = await installShHook(join(t.root, 'install dir', 'bin'));
  c = t.context;
  await mkdir(join(t.workspace, 'src'));
  await writeFile(join(t.workspace, 'src', 'app.ts'), 'export const answer = 41;\n');
});
afterEach(async () => { await t.close(); });

async function hook(payload: unknown, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const result = await runShHook(hookBin, payload, { ...t.env, ...env });
  expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
}

const logLines = async () =>
  (await readFile(join(t.env.XDG_STATE_HOME!, 'turnback', 'hook.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
const sessions = async () => (await t.api<{ sessions: Session[] }>('GET', '/api/sessions')).json.sessions;
const turns = async () => (await t.api<{ turns: Turn[] }>('GET', `/api/sessions/${p.SESSION_ID}/turns`)).json.turns;
const messages = async () => (await t.api<{ messages: Message[] }>('GET', `/api/sessions/${p.SESSION_ID}/messages`)).json.messages;

async function registerAgain(fields: Record<string, unknown>): Promise<void> {
  const file = join(t.env.XDG_STATE_HOME!, 'turnback', 'servers', `${t.server.port}.json`);
  const entry = JSON.parse(await readFile(file, 'utf8'));
  await writeFile(file, `${JSON.stringify({ ...entry, ...fields })}\n`);
}

/** A stand-in for Node that only notes it was started. */
async function fakeNode(): Promise<{ node: string; started: () => boolean }> {
  const marker = join(t.root, 'node started');
  const node = join(t.root, 'fake-node');
  await writeFile(node, `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
  return { node, started: () => existsSync(marker) };
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Node fallbacks start tsx: slow on a loaded machine.
describe('bin/turnback-hook', { timeout: 90_000 }, () => {
  it('records a whole turn over sh + curl: prompt, Write, Edit, Bash, Stop', async () => {
    await hook(p.userPromptSubmit(c, 'Add a helper'), NO_NODE);
    const tools = [
      p.write(c, join(t.workspace, 'src', 'lib', 'helper.ts'), 'export {};\n'),
      p.edit({ ...c, cwd: join(t.workspace, 'src') }, 'app.ts', '41', '42'),
      p.bash(c, 'npm test -- "it\'s" $HOME `id`'),
    ];
    await hook(tools[0], NO_NODE);
    await mkdir(join(t.workspace, 'src', 'lib'));
    await writeFile(join(t.workspace, 'src', 'lib', 'helper.ts'), 'export {};\n');
    await hook(tools[1], NO_NODE);
    await writeFile(join(t.workspace, 'src', 'app.ts'), 'export const answer = 42;\n');
    await hook(tools[2], NO_NODE);
    await writeFile(c.transcriptPath, p.transcriptLines([{ prompt: 'Add a helper', reply: ['Added `helper.ts`.'], tools }]));
    await hook(p.stop(c), NO_NODE);

    const [turn] = await turns();
    expect(turn).toMatchObject({
      number: 1, title: 'Add a helper', status: 'committed', fileCount: 2, execUsed: true,
      execCommands: [{ tool: 'Bash', command: 'npm test -- "it\'s" $HOME `id`' }],
    });
    const { entries } = (await t.api<Manifest>('GET', `/api/turns/${turn.turnId}`)).json;
    expect(entries.map((e) => [e.op, e.uri, e.before?.type ?? null])).toEqual([
      ['mkdir', 'workspace:/src/lib', null],
      ['write', 'workspace:/src/lib/helper.ts', null],
      ['write', 'workspace:/src/app.ts', 'file'],
    ]);
    expect((await messages()).map((m) => [m.role, m.content])).toEqual([
      ['user', 'Add a helper'],
      ['assistant', 'I will write it.'],
      ['tool', 'Write(src/lib/helper.ts)'],
      ['tool', 'Edit(app.ts)'],
      ['tool', 'Bash(npm test -- "it\'s" $HOME `id`)'],
      ['assistant', 'Added `helper.ts`.'],
    ]);
    expect(await logLines()).toEqual([]);
  });

  it('waits --max-time seconds for a server that takes longer than 2 s (a scan)', async () => {
    const slow = createHttpServer((_req, res) => setTimeout(() => res.end('{"ok":true,"outcome":"forwarded","calls":1}'), 2500));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      await registerAgain({ port: (slow.address() as AddressInfo).port });
      const result = await runShHook(hookBin, p.bash(c, 'make'), { ...t.env, ...NO_NODE }, ['--max-time', '10']);
      expect(result.code).toBe(0);
      expect(await logLines()).toEqual([]);
      await hook(p.bash(c, 'make'), NO_NODE);
      expect(await logLines()).toEqual([expect.stringContaining('gave up after 2000 ms')]);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it('finds the server of a cwd reached through a symlink without Node', async () => {
    const link = join(t.root, 'link to project');
    await symlink(t.workspace, link);
    await hook(p.userPromptSubmit({ ...c, cwd: link }, 'Through the link'), NO_NODE);
    expect((await turns()).map((turn) => turn.title)).toEqual(['Through the link']);
    expect(await logLines()).toEqual([]);
  });

  it('picks the deepest registered workspace holding the cwd', async () => {
    const outer = join(t.root, 'state', 'turnback', 'servers', '1.json');
    // A live process, a workspace that holds this one, a port nobody listens on.
    await writeFile(outer, JSON.stringify({ workspace: t.root, port: await closedPort(), agentToken: 'x', pid: process.pid }));
    await hook(p.userPromptSubmit(c, 'Deepest wins'), NO_NODE);
    expect((await turns()).map((turn) => turn.title)).toEqual(['Deepest wins']);
    expect(await logLines()).toEqual([]);
  });

  it('exits 0 and logs one line when the registered server is down', async () => {
    const port = await closedPort();
    await registerAgain({ port });
    await hook(p.userPromptSubmit(c, 'hello'), NO_NODE);
    const lines = await logLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z claude-code /api/agent/hook/claude-code on port ${port} failed: curl exit 7`));
  });

  it('logs the answer of a server that refuses the event, exit 0', async () => {
    await hook(p.userPromptSubmit({ ...c, sessionId: 'no/slashes' }, 'x'), NO_NODE);
    const lines = await logLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/hook\/claude-code answered 400: .*malformed hook event: invalid session_id/);
  });

  it('hands a token with spaces and shell syntax over as it is, evaluating nothing', async () => {
    const marker = join(t.root, 'evaluated');
    await registerAgain({ agentToken: `a b $(touch '${marker}') \`touch '${marker}'\` ; *` });
    await hook(p.userPromptSubmit(c, 'hello'), NO_NODE);
    expect(existsSync(marker)).toBe(false);
    const lines = await logLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('answered 401');
    expect(await sessions()).toEqual([]);
  });

  it('with no server for the cwd logs one line and exits at once, starting no Node', async () => {
    const { node, started } = await fakeNode();
    await hook(p.userPromptSubmit({ ...c, cwd: t.root }, 'nobody here'), { TURNBACK_NODE: node });
    // The registered server gone (its pid dead), and no registry at all.
    await registerAgain({ pid: await deadPid() });
    await hook(p.userPromptSubmit(c, 'server gone'), { TURNBACK_NODE: node });
    await hook(p.userPromptSubmit(c, 'no registry'), { TURNBACK_NODE: node, XDG_STATE_HOME: join(t.root, 'other state') });
    expect(started()).toBe(false);
    expect(await logLines()).toEqual([
      expect.stringMatching(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z claude-code no turnback server for ${t.root}$`)),
      expect.stringContaining(`no turnback server for ${t.workspace}`),
    ]);
    expect(await readFile(join(t.root, 'other state', 'turnback', 'hook.log'), 'utf8')).toContain(`no turnback server for ${t.workspace}`);
  });

  it('leaves a registry entry it cannot read to the Node hook', async () => {
    // Escapes in the workspace string: the sh hook reads only plain entries.
    await registerAgain({ agentToken: 'with "quotes"' });
    const { node, started } = await fakeNode();
    await hook(p.userPromptSubmit(c, 'escaped entry'), { TURNBACK_NODE: node });
    expect(started()).toBe(true);
    expect(await logLines()).toEqual([]);
  });

  it('falls back to the Node hook on input it cannot read plainly, which logs malformed input', async () => {
    await hook('{"session_id": "abc", ');
    const lines = await logLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('malformed input');
  });

  it('leaves an event with a nested "cwd" to the Node hook rather than guess which is its own', async () => {
    await hook(p.userPromptSubmit(c, 'Run it'), NO_NODE);
    // A registered server the nested cwd belongs to (down): a wrong guess would end there.
    const outer = join(t.root, 'state', 'turnback', 'servers', '1.json');
    await writeFile(outer, JSON.stringify({ workspace: t.root, port: await closedPort(), agentToken: 'x', pid: process.pid }));
    // The nested one first: a first-match guess would take it.
    const { tool_input: toolInput, ...rest } = p.bash(c, 'make');
    const nested = { tool_input: { ...toolInput, cwd: t.root }, ...rest };
    await hook(nested, NO_NODE);
    expect((await turns())[0].execUsed).toBe(false);
    await hook(nested);
    expect((await turns())[0].execCommands).toMatchObject([{ command: 'make' }]);
    expect(await logLines()).toEqual([]);
  });

  it('falls back to the Node hook when curl is not on PATH, and still records', async () => {
    const path = await toolPath(join(t.root, 'tools'), ['curl']);
    await hook(p.userPromptSubmit(c, 'Without curl'), { PATH: path });
    await hook(p.bash(c, 'ls'), { PATH: path });
    expect((await turns())[0]).toMatchObject({ title: 'Without curl', execUsed: true });
    expect(await logLines()).toEqual([]);
  });

  it('records the original of a file a Write of 20 MiB replaces (sent without its new contents)', async () => {
    await hook(p.userPromptSubmit(c, 'Generate data'));
    await hook(p.write(c, join(t.workspace, 'src', 'app.ts'), 'x'.repeat(20 * 1024 * 1024)));
    await writeFile(join(t.workspace, 'src', 'app.ts'), 'x'.repeat(20 * 1024 * 1024));
    await hook(p.stop(c));
    const [turn] = await turns();
    const { entries } = (await t.api<Manifest>('GET', `/api/turns/${turn.turnId}`)).json;
    expect(entries.map((e) => [e.op, e.uri, e.before?.type ?? null])).toEqual([['write', 'workspace:/src/app.ts', 'file']]);
    expect(await logLines()).toEqual([]);
  });
});
