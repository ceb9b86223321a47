// turnback's OpenCode plugin, loaded as OpenCode loads it (an ES module from its plugins folder),
// fed the calls a real OpenCode 1.18.33 made to a plugin (test/fixtures/: write, read, edit,
// bash, a failing bash, a failing edit, then idle), posting to a stub service found through the
// state dir; and what it posts, read by event.ts.
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseOpencodeEvent } from './event.js';
import { PLUGIN_SOURCE } from './plugin.js';

type Hooks = Record<string, (...args: any[]) => Promise<void>>;
let root: string;
let server: Server;
let recorder: Server;
let tcpHits = 0;
const posts: { path: string; auth: string; body: any }[] = [];
const FORWARDED = '{"ok":true,"outcome":"forwarded","calls":1}';
let answer = FORWARDED;
let plugin: (ctx: { directory: string; client?: unknown }) => Promise<Hooks>;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-opencode-plugin-'));
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      posts.push({ path: req.url ?? '', auth: req.headers.authorization ?? '', body: JSON.parse(body) });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(answer);
    });
  });
  // A listener on service.json's TCP port: the plugin must never send it anything (the token
  // goes over service.sock only).
  recorder = createServer((req, res) => {
    tcpHits++;
    res.writeHead(401).end();
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  const file = join(root, 'turnback.mjs');
  await writeFile(file, PLUGIN_SOURCE);
  plugin = (await import(pathToFileURL(file).href)).TurnbackPlugin;
});
afterEach(() => expect(tcpHits).toBe(0));
afterAll(async () => {
  server.close();
  recorder.close();
  await rm(root, { recursive: true, force: true });
});

async function useState(service: boolean): Promise<void> {
  const state = await mkdtemp(join(root, 'state-'));
  vi.stubEnv('XDG_STATE_HOME', state);
  if (!service) return;
  const { port } = recorder.address() as AddressInfo;
  await (await import('node:fs/promises')).mkdir(join(state, 'turnback'), { mode: 0o700 });
  await writeFile(
    join(state, 'turnback', 'service.json'),
    JSON.stringify({ pid: process.pid, port, version: '0', startedAt: '', url: `http://127.0.0.1:${port}/` }),
  );
  await writeFile(join(state, 'turnback', 'agent-token'), 'a'.repeat(64));
  if (server.listening) await new Promise((resolve) => server.close(resolve));
  await new Promise<void>((resolve) => server.listen(join(state, 'turnback', 'service.sock'), resolve));
}

const fixture = async () =>
  (await readFile(new URL('./test/fixtures/plugin-calls-1.18.33.jsonl', import.meta.url), 'utf8'))
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { kind: string; a: any; b: any });

async function replay(hooks: Hooks): Promise<void> {
  for (const call of await fixture()) {
    if (call.kind === 'chat.message') await hooks['chat.message'](call.a, call.b);
    else if (call.kind === 'before') await hooks['tool.execute.before'](call.a, call.b);
    else if (call.kind === 'after') await hooks['tool.execute.after'](call.a, call.b);
    else if (call.kind === 'event') await hooks.event({ event: call.a });
  }
}

describe('the OpenCode plugin', () => {
  it("posts each call, in order, with the agent token, to the service's opencode route", async () => {
    await useState(true);
    posts.length = 0;
    const hooks = await plugin({ directory: '/tmp/gx/oc1/project' });
    await hooks.event({
      event: {
        type: 'message.part.updated',
        properties: {
          part: {
            id: 'p1',
            type: 'text',
            text: 'Turn 1 done.',
            messageID: 'm2',
            sessionID: 'ses_dcba3a57cffeQDQQNXiDl7Bgas',
          },
        },
      },
    });
    await replay(hooks);
    expect(new Set(posts.map((p) => `${p.path} ${p.auth}`))).toEqual(
      new Set([`/api/agent/hook/opencode Bearer ${'a'.repeat(64)}`]),
    );
    expect(posts.map((p) => [p.body.event, p.body.tool ?? null])).toEqual([
      ['prompt', null],
      ['tool.before', 'write'],
      ['tool.before', 'edit'],
      ['tool.before', 'bash'],
      ['tool.after', 'bash'],
      ['tool.before', 'bash'],
      ['tool.after', 'bash'],
      ['tool.before', 'edit'],
      ['idle', null],
    ]);
    for (const post of posts)
      expect(post.body).toMatchObject({ session_id: 'ses_dcba3a57cffeQDQQNXiDl7Bgas', cwd: '/tmp/gx/oc1/project' });
    const kinds = posts.map((p) => {
      const parsed = parseOpencodeEvent(p.body);
      return parsed.ok ? parsed.event.kind : parsed.ignored ? 'ignored' : 'malformed';
    });
    expect(kinds).toEqual([
      'prompt',
      'before-mutate',
      'before-mutate',
      'exec',
      'exec-end',
      'exec',
      'exec-end',
      'before-mutate',
      'turn-end',
    ]);
    const [start, end] = [parseOpencodeEvent(posts[3].body), parseOpencodeEvent(posts[4].body)];
    expect(
      start.ok &&
        end.ok &&
        start.event.kind === 'exec' &&
        end.event.kind === 'exec-end' &&
        start.event.callId === end.event.callId,
    ).toBe(true);
    // The prompt's text part (the person's message) is not the reply.
    expect(posts.at(-1)!.body.reply).toBe('');
  });

  it("sends a sub-agent's calls as the parent session's, with its id, between its start and end", async () => {
    await useState(true);
    posts.length = 0;
    const hooks = await plugin({ directory: '/w' });
    await hooks['chat.message'](
      { sessionID: 'ses_parent' },
      { message: { id: 'm1' }, parts: [{ type: 'text', text: 'Go' }] },
    );
    await hooks.event({
      event: { type: 'session.created', properties: { info: { id: 'ses_child', parentID: 'ses_parent' } } },
    });
    await hooks['chat.message'](
      { sessionID: 'ses_child' },
      { message: { id: 'm2' }, parts: [{ type: 'text', text: 'the subtask' }] },
    );
    await hooks['tool.execute.before'](
      { tool: 'bash', sessionID: 'ses_child', callID: 'c1' },
      { args: { command: 'ls' } },
    );
    await hooks.event({
      event: {
        type: 'message.part.updated',
        properties: { part: { id: 'p', type: 'text', text: 'Done.', messageID: 'm3', sessionID: 'ses_parent' } },
      },
    });
    await hooks.event({ event: { type: 'session.idle', properties: { sessionID: 'ses_child' } } });
    await hooks.event({ event: { type: 'session.idle', properties: { sessionID: 'ses_parent' } } });
    expect(posts.map((p) => [p.body.event, p.body.session_id, p.body.agent_id ?? null])).toEqual([
      ['prompt', 'ses_parent', null],
      ['subagent.start', 'ses_parent', 'ses_child'],
      ['tool.before', 'ses_parent', 'ses_child'],
      ['subagent.end', 'ses_parent', 'ses_child'],
      ['idle', 'ses_parent', null],
    ]);
    expect(posts.at(-1)!.body.reply).toBe('Done.');
  });

  it('tells the person once per session when no service runs, and never throws into OpenCode', async () => {
    await useState(false);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const toasts: unknown[] = [];
    const hooks = await plugin({
      directory: '/w',
      client: {
        tui: {
          showToast: async (t: unknown) => {
            toasts.push(t);
          },
        },
      },
    });
    await hooks['chat.message'](
      { sessionID: 'ses_x' },
      { message: { id: 'm' }, parts: [{ type: 'text', text: 'hi' }] },
    );
    await hooks['tool.execute.before']({ tool: 'bash', sessionID: 'ses_x', callID: 'c' }, { args: { command: 'ls' } });
    const told = stderr.mock.calls.map(([line]) => String(line)).filter((line) => line.startsWith('turnback:'));
    stderr.mockRestore();
    expect(told).toEqual([
      'turnback: no turnback service is running: this session is not recorded (start it with: turnback start)\n',
    ]);
    expect(toasts).toHaveLength(1);
  });
});

describe("the plugin's events, read by the opencode host", () => {
  it("adds the prompt answer's agentNotice to the prompt as a synthetic text part, which is not the prompt", async () => {
    await useState(true);
    posts.length = 0;
    const notice = 'turnback: since your last prompt the person took back work of this session (Undo of #1).';
    answer = JSON.stringify({ ok: true, outcome: 'forwarded', calls: 1, agentNotice: notice });
    try {
      const hooks = await plugin({ directory: '/tmp/gx/oc1/project' });
      const parts = [{ id: 'prt_a', type: 'text', text: 'Go on', messageID: 'msg_1', sessionID: 'ses_1' }];
      await hooks['chat.message']({ sessionID: 'ses_1' }, { message: { id: 'msg_1', sessionID: 'ses_1' }, parts });
      expect(posts.map((p) => [p.body.event, p.body.prompt])).toEqual([['prompt', 'Go on']]);
      expect(parts).toHaveLength(2);
      expect(parts[1]).toEqual({
        id: expect.stringMatching(/^prt_[0-9a-f]{12}[0-9A-Za-z]{14}$/),
        messageID: 'msg_1',
        sessionID: 'ses_1',
        type: 'text',
        synthetic: true,
        text: notice,
      });
    } finally {
      answer = FORWARDED;
    }
  });

  it('refuses what is not one, ignores what changes nothing', () => {
    const base = { session_id: 'ses_a', cwd: '/w' };
    expect(parseOpencodeEvent({ ...base, event: 'tool.before', tool: 'edit', args: {} })).toMatchObject({
      ok: false,
      ignored: false,
    });
    expect(parseOpencodeEvent({ ...base, event: 'tool.before', tool: 'glob', args: {} })).toMatchObject({
      ok: false,
      ignored: true,
    });
    expect(
      parseOpencodeEvent({
        ...base,
        event: 'tool.before',
        tool: 'apply_patch',
        call_id: 'c',
        args: { patchText: '*** Begin Patch' },
      }),
    ).toMatchObject({ ok: true, event: { kind: 'exec', tool: 'apply_patch' } });
    expect(parseOpencodeEvent({ ...base, event: 'subagent.start' })).toMatchObject({ ok: false, ignored: false });
    expect(parseOpencodeEvent({ ...base, session_id: 'no spaces allowed', event: 'idle' })).toMatchObject({
      ok: false,
      ignored: false,
    });
    expect(parseOpencodeEvent({ ...base, event: 'something.else' })).toMatchObject({ ok: false, ignored: true });
  });
});
