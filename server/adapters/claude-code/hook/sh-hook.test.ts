// bin/turnback-hook (sh + curl) end to end: a real server, the installed script run as Claude
// Code runs it. Where the fast path must be the one that worked, the Node fallback is
// pointed at nothing (TURNBACK_NODE), so only the sh path can have recorded anything.
import { spawnSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest, Message, Session, Turn } from '../../../protocol.js';
import * as p from '../test/payloads.js';
import { startHookTestServer, type HookTestServer } from '../test/server.js';
import { listenOnServiceSocket, serviceSocketOf, writeServiceFiles } from '../test/service-entry.js';
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
afterEach(async () => {
  await t.close();
});

async function hook(payload: unknown, env: NodeJS.ProcessEnv = {}): Promise<void> {
  const result = await runShHook(hookBin, payload, { ...t.env, ...env });
  expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
}

const logLines = async () =>
  (await readFile(join(t.env.XDG_STATE_HOME!, 'turnback', 'hook.log'), 'utf8').catch(() => ''))
    .split('\n')
    .filter(Boolean);
const sessions = async () => (await t.api<{ sessions: Session[] }>('GET', '/api/sessions')).json.sessions;
const turns = async () => (await t.api<{ turns: Turn[] }>('GET', `/api/sessions/${p.SESSION_ID}/turns`)).json.turns;
const messages = async () =>
  (await t.api<{ messages: Message[] }>('GET', `/api/sessions/${p.SESSION_ID}/messages`)).json.messages;

/** Rewrites service.json (and the agent token file) as a service would have left them. */
async function registerAgain(fields: { port?: number; pid?: number; agentToken?: string }): Promise<void> {
  await writeServiceFiles(t.env.XDG_STATE_HOME!, { port: t.server.port, ...fields });
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
  return Number(
    spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout,
  );
}

/** The service's socket as a service killed with SIGKILL leaves it: the file, nobody listening. */
async function staleSocket(): Promise<void> {
  const socket = serviceSocketOf(t.env.XDG_STATE_HOME!);
  await rm(socket, { force: true });
  spawnSync(process.execPath, [
    '-e',
    `require('node:net').createServer().listen(${JSON.stringify(socket)}, () => process.kill(process.pid, 'SIGKILL'))`,
  ]);
  expect(existsSync(socket)).toBe(true);
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
    await writeFile(
      c.transcriptPath,
      p.transcriptLines([{ prompt: 'Add a helper', reply: ['Added `helper.ts`.'], tools }]),
    );
    await hook(p.stop(c), NO_NODE);

    const [turn] = await turns();
    expect(turn).toMatchObject({
      number: 1,
      title: 'Add a helper',
      status: 'committed',
      fileCount: 2,
      execUsed: true,
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
    const slow = createHttpServer((_req, res) =>
      setTimeout(() => res.end('{"ok":true,"outcome":"forwarded","calls":1}'), 2500),
    );
    await listenOnServiceSocket(slow, t.env.XDG_STATE_HOME!);
    try {
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

  it("hands the event to the Node hook when nothing listens on the service's socket (it starts the service again)", async () => {
    for (const setup of [staleSocket, () => rm(serviceSocketOf(t.env.XDG_STATE_HOME!))]) {
      await setup();
      const { node, started } = await fakeNode();
      await hook(p.userPromptSubmit(c, 'hello'), { TURNBACK_NODE: node });
      expect(started()).toBe(true);
      await rm(join(t.root, 'node started'));
    }
  });

  it('hands the event to the Node hook when the service dies while it has it (no answer: curl 52 or 56)', async () => {
    // A service SIGKILLed mid-request: the connection ends with no answer (reset when the request was unread).
    const dying = createHttpServer((req) => req.socket.destroy());
    await listenOnServiceSocket(dying, t.env.XDG_STATE_HOME!);
    try {
      const { node, started } = await fakeNode();
      await hook(p.bash(c, 'rm precious.txt'), { TURNBACK_NODE: node });
      expect(started()).toBe(true);
    } finally {
      dying.closeAllConnections();
      await new Promise((resolve) => dying.close(resolve));
    }
  });

  it("sends the agent token over the service's socket only: the TCP port in service.json gets nothing", async () => {
    const overTcp: string[] = [];
    const recorder = createHttpServer((req, res) => {
      overTcp.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.end('{}');
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    try {
      await registerAgain({ port: (recorder.address() as AddressInfo).port, agentToken: t.server.agentToken });
      await hook(p.userPromptSubmit(c, 'Over the socket'), NO_NODE);
      expect((await turns()).map((turn) => turn.title)).toEqual(['Over the socket']);
      expect(overTcp).toEqual([]);
      expect(await logLines()).toEqual([]);
    } finally {
      recorder.closeAllConnections();
      await new Promise((resolve) => recorder.close(resolve));
    }
  });

  it('logs the answer of a server that refuses the event, exit 0', async () => {
    await hook(p.userPromptSubmit({ ...c, sessionId: 'no/slashes' }, 'x'), NO_NODE);
    const lines = await logLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/hook\/claude-code answered 400: .*malformed hook event: invalid session_id/);
  });

  it('hands a token with shell syntax over as it is, evaluating nothing', async () => {
    const marker = join(t.root, 'evaluated');
    expect(marker).not.toContain(' ');
    await registerAgain({ agentToken: `a$(touch\${IFS}${marker})\`touch\${IFS}${marker}\`;*|&>x` });
    await hook(p.userPromptSubmit(c, 'hello'), NO_NODE);
    expect(existsSync(marker)).toBe(false);
    const lines = await logLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('answered 401');
    expect(await sessions()).toEqual([]);
  });

  it('hands the event to the Node hook (which starts the service) when no service is live or its files are of another shape', async () => {
    const stateDir = join(t.env.XDG_STATE_HOME!, 'turnback');
    for (const setup of [
      () => registerAgain({ pid: 0 }),
      () => rm(join(stateDir, 'service.json')),
      () => writeFile(join(stateDir, 'service.json'), '{"port":1,"pid":2}\n'),
      () => registerAgain({ agentToken: 'with spaces in it' }),
      async () => registerAgain({ pid: await deadPid() }),
    ]) {
      await registerAgain({ agentToken: t.server.agentToken });
      await setup();
      const { node, started } = await fakeNode();
      await hook(p.userPromptSubmit(c, 'no live service'), { TURNBACK_NODE: node });
      expect(started()).toBe(true);
      await rm(join(t.root, 'node started'));
    }
  });

  it('prints the systemMessage of a not-recorded answer for Claude Code, and logs the reason', async () => {
    const answer =
      '{"ok":true,"outcome":"not-recorded","ignored":"the home folder /h itself cannot be a workspace","systemMessage":"turnback is not recording this session: the home folder /h itself cannot be a workspace"}';
    const stub = createHttpServer((_req, res) => res.end(answer));
    await listenOnServiceSocket(stub, t.env.XDG_STATE_HOME!);
    try {
      const result = await runShHook(hookBin, p.userPromptSubmit(c, 'x'), { ...t.env, ...NO_NODE });
      expect(result).toEqual({
        code: 0,
        stdout:
          '{"systemMessage":"turnback is not recording this session: the home folder /h itself cannot be a workspace"}\n',
        stderr: '',
      });
      expect(JSON.parse(result.stdout)).toEqual({ systemMessage: expect.stringContaining('not recording') });
      expect(await logLines()).toEqual([
        expect.stringMatching(/claude-code not recorded: the home folder \/h itself cannot be a workspace$/),
      ]);
    } finally {
      stub.closeAllConnections();
      await new Promise((resolve) => stub.close(resolve));
    }
  });

  it("prints the prompt's paragraph about an undo as Claude Code's additionalContext, once", async () => {
    const file = join(t.workspace, 'src', 'a "b" ü.ts');
    await hook(p.userPromptSubmit(c, 'Add a file'), NO_NODE);
    await hook(p.write(c, file, 'secret words'), NO_NODE);
    await writeFile(file, 'secret words');
    await hook(p.stop(c), NO_NODE);
    const [turn] = await turns();
    expect((await t.api('POST', `/api/turns/${turn.turnId}/rollback`, {})).status).toBe(200);
    const told = await runShHook(hookBin, p.userPromptSubmit(c, 'Go on'), { ...t.env, ...NO_NODE });
    expect(told).toMatchObject({ code: 0, stderr: '' });
    const output = JSON.parse(told.stdout) as {
      hookSpecificOutput: { hookEventName: string; additionalContext: string };
    };
    expect(output.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
    expect(output.hookSpecificOutput.additionalContext).toContain('"src/a \\"b\\" ü.ts" (deleted)');
    expect(output.hookSpecificOutput.additionalContext).not.toContain('secret');
    await hook(p.stop(c), NO_NODE);
    await hook(p.userPromptSubmit(c, 'And on'), NO_NODE);
  });

  it('hands input that is not JSON to the service, which refuses it: one line in the log', async () => {
    await hook('{"session_id": "abc", ', NO_NODE);
    const lines = await logLines();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/answered 400: .*(malformed|JSON)/);
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
    expect(entries.map((e) => [e.op, e.uri, e.before?.type ?? null])).toEqual([
      ['write', 'workspace:/src/app.ts', 'file'],
    ]);
    expect(await logLines()).toEqual([]);
  });
});
