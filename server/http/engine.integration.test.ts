// The server around the real engine, in-process on port 0: the agent API drives turns, the
// console API reads and rolls them back, and the event stream reports it all.
import { realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine/api.js';
import { openEngine } from '../engine/index.js';
import { workspaceIdOf } from '../state-dir.js';
import { startServer, type RunningServer } from './server.js';
import { send } from './test/client.js';
import { openSse, type SseReader } from './test/sse-reader.js';

let root: string;
let workspace: string;
let engine: Engine;
let server: RunningServer;
let stream: SseReader | undefined;
const TOKEN = 'console-token';
const AGENT = 'agent-token';
const SESSION = 'web-1';

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'turnback-http-'));
  workspace = path.join(root, 'ws');
  await mkdir(workspace);
  await writeFile(path.join(workspace, 'app.ts'), 'export const a = 1;\n');
  engine = await openEngine({ workspace, dataDir: path.join(root, 'data'), scopes: ['webui:*'] });
  server = await startServer({
    engine,
    port: 0,
    token: TOKEN,
    agentToken: AGENT,
    distDir: path.join(root, 'no-dist'),
    log: { info() {}, error() {} },
  });
});

afterEach(async () => {
  stream?.close();
  stream = undefined;
  await server.close();
  await engine.close();
  await rm(root, { recursive: true, force: true });
});

const agent = (route: string, body: unknown) =>
  send(server.port, { method: 'POST', path: `/api/agent/${route}`, token: AGENT, body });
const consoleGet = (p: string) => send(server.port, { path: p, token: TOKEN });
const consolePost = (p: string, body: unknown = {}) =>
  send(server.port, { method: 'POST', path: p, token: TOKEN, body });

async function recordTurn(content: string, writes: Record<string, string>): Promise<string> {
  const input = await agent('input', { sessionId: SESSION, platform: 'webui', sessionType: 'chat', content });
  expect(input.status).toBe(200);
  for (const [uri, text] of Object.entries(writes)) {
    expect((await agent('fs/write', { sessionId: SESSION, uri, content: text })).status).toBe(200);
  }
  await agent('message', { sessionId: SESSION, role: 'assistant', content: `done: ${content}` });
  expect((await agent('turn-end', { sessionId: SESSION })).json).toEqual({ turnId: input.json.turnId });
  return input.json.turnId as string;
}

describe('the server around the real engine', () => {
  it('streams turn-begun, captured and turn-committed to a console holding the token', async () => {
    stream = await openSse(server.port, {}, `/api/events?token=${encodeURIComponent(TOKEN)}`);
    expect(stream.status).toBe(200);
    await stream.waitFor('retry: 2000');
    const turnId = await recordTurn('Edit app', { 'workspace:/app.ts': 'export const a = 2;\n' });
    await stream.waitFor('event: turn-committed');
    const text = stream.text();
    expect(text).toContain(
      `event: turn-begun\ndata: ${JSON.stringify({ sessionId: SESSION, turnId, workspaceId: workspaceIdOf(realpathSync(engine.workspace)) })}\n\n`,
    );
    expect(text).toContain(
      `event: captured\ndata: ${JSON.stringify({ sessionId: SESSION, turnId, uri: 'workspace:/app.ts', workspaceId: workspaceIdOf(realpathSync(engine.workspace)) })}\n\n`,
    );
    expect(text).toContain(
      `event: turn-committed\ndata: ${JSON.stringify({ sessionId: SESSION, turnId, workspaceId: workspaceIdOf(realpathSync(engine.workspace)) })}\n\n`,
    );
  });

  it('shows a turn, its diff and its preview, rolls it back, and undoes the rollback', async () => {
    const turnId = await recordTurn('Edit app and add b', {
      'workspace:/app.ts': 'export const a = 2;\n',
      'workspace:/b.ts': 'b\n',
    });
    const sessions = (await consoleGet('/api/sessions')).json.sessions;
    expect(sessions).toEqual([
      expect.objectContaining({ sessionId: SESSION, platform: 'webui', sessionType: 'chat', activeTurnId: null }),
    ]);
    const manifest = (await consoleGet(`/api/turns/${turnId}`)).json;
    expect(manifest.turn).toMatchObject({
      turnId,
      number: 1,
      kind: 'agent',
      status: 'committed',
      fileCount: 2,
      title: 'Edit app and add b',
    });
    expect(manifest.files.map((f: { uri: string; change: string }) => `${f.change} ${f.uri}`).sort()).toEqual([
      'created workspace:/b.ts',
      'modified workspace:/app.ts',
    ]);
    const diff = (await consoleGet(`/api/turns/${turnId}/diff?uri=${encodeURIComponent('workspace:/app.ts')}`)).json;
    expect([diff.before.text, diff.after.text]).toEqual(['export const a = 1;\n', 'export const a = 2;\n']);
    const plan = (await consolePost(`/api/turns/${turnId}/preview`)).json;
    expect(plan).toMatchObject({ turnId, conflicts: [] });

    stream = await openSse(server.port, { Authorization: `Bearer ${TOKEN}` });
    const result = (await consolePost(`/api/turns/${turnId}/rollback`)).json;
    expect(result).toMatchObject({ ok: true, turnId, errors: [] });
    expect(await readFile(path.join(workspace, 'app.ts'), 'utf8')).toBe('export const a = 1;\n');
    await stream.waitFor('event: rollback-done');
    expect(stream.text()).toContain(
      JSON.stringify({
        sessionId: SESSION,
        turnId,
        rollbackTurnId: result.rollbackTurnId,
        ok: true,
        workspaceId: workspaceIdOf(realpathSync(engine.workspace)),
      }),
    );

    const undo = (await consolePost(`/api/turns/${result.rollbackTurnId}/rollback`)).json;
    expect(undo.ok).toBe(true);
    expect(await readFile(path.join(workspace, 'b.ts'), 'utf8')).toBe('b\n');
  });

  it('answers CONFLICT with the drifted paths, and force rolls back anyway', async () => {
    const turnId = await recordTurn('Edit app', { 'workspace:/app.ts': 'export const a = 2;\n' });
    await writeFile(path.join(workspace, 'app.ts'), 'edited by hand\n');
    const conflict = await consolePost(`/api/turns/${turnId}/rollback`);
    expect(conflict.status).toBe(409);
    expect(conflict.json.error).toMatchObject({ code: 'CONFLICT', conflicts: ['workspace:/app.ts'] });
    expect(await readFile(path.join(workspace, 'app.ts'), 'utf8')).toBe('edited by hand\n');
    expect((await consolePost(`/api/turns/${turnId}/rollback`, { force: true })).json.ok).toBe(true);
    expect(await readFile(path.join(workspace, 'app.ts'), 'utf8')).toBe('export const a = 1;\n');
  });

  it('answers TURN_ACTIVE while the session has an active agent turn', async () => {
    const turnId = await recordTurn('Edit app', { 'workspace:/app.ts': 'export const a = 2;\n' });
    await agent('input', { sessionId: SESSION, platform: 'webui', sessionType: 'chat', content: 'next' });
    for (const [p, body] of [
      [`/api/turns/${turnId}/rollback`, {}],
      [`/api/turns/${turnId}/rollback-with-chat`, {}],
      [`/api/sessions/${SESSION}/rewind`, { toTurnId: turnId }],
    ] as const) {
      const answer = await consolePost(p, body);
      expect([answer.status, answer.json.error?.code], p).toEqual([409, 'TURN_ACTIVE']);
    }
  });

  it('rolls back with chat, reporting the deleted messages', async () => {
    const turnId = await recordTurn('Edit app', { 'workspace:/app.ts': 'export const a = 2;\n' });
    stream = await openSse(server.port, { Authorization: `Bearer ${TOKEN}` });
    const result = (await consolePost(`/api/turns/${turnId}/rollback-with-chat`)).json;
    expect(result).toMatchObject({ ok: true, deletedMessages: 2 });
    await stream.waitFor('event: messages-deleted');
    expect((await consoleGet(`/api/sessions/${SESSION}/messages`)).json.messages).toEqual([]);
  });

  it('previews and runs a rewind, then deletes the session', async () => {
    const first = await recordTurn('One', { 'workspace:/app.ts': 'export const a = 2;\n' });
    await recordTurn('Two', { 'workspace:/app.ts': 'export const a = 3;\n' });
    const plan = (await consolePost(`/api/sessions/${SESSION}/rewind/preview`, { toTurnId: first })).json;
    expect(plan.conflicts).toEqual([]);
    expect((await consolePost(`/api/sessions/${SESSION}/rewind`, { toTurnId: first })).json.ok).toBe(true);
    expect(await readFile(path.join(workspace, 'app.ts'), 'utf8')).toBe('export const a = 1;\n');
    stream = await openSse(server.port, { Authorization: `Bearer ${TOKEN}` });
    expect(
      (await send(server.port, { method: 'DELETE', path: `/api/sessions/${SESSION}`, token: TOKEN })).json,
    ).toEqual({ ok: true });
    await stream.waitFor('event: session-deleted');
    expect((await consoleGet('/api/sessions')).json.sessions).toEqual([]);
  });

  it('maps the engine refusals: BAD_URI, FILE_NOT_FOUND, TURN_NOT_FOUND', async () => {
    for (const uri of [
      'workspace:/../etc/passwd',
      'workspace:/a//b',
      'workspace:/a/',
      'nowhere:/a',
      'workspace:/a\\b',
    ]) {
      const answer = await agent('fs/write', { sessionId: SESSION, uri, content: 'x' });
      expect([answer.status, answer.json.error.code], uri).toEqual([400, 'BAD_URI']);
    }
    const missing = await send(server.port, { path: '/api/agent/fs/read?uri=workspace:/missing.ts', token: AGENT });
    expect([missing.status, missing.json.error.code]).toEqual([404, 'FILE_NOT_FOUND']);
    const read = await send(server.port, { path: '/api/agent/fs/read?uri=workspace:/app.ts', token: AGENT });
    expect(read.json).toEqual({
      uri: 'workspace:/app.ts',
      content: 'export const a = 1;\n',
      encoding: 'utf8',
      size: 20,
    });
    const turn = await consoleGet('/api/turns/t_nope');
    expect([turn.status, turn.json.error.code]).toEqual([404, 'TURN_NOT_FOUND']);
  });

  it('writes base64 content byte for byte', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255, 0]);
    expect(
      (
        await agent('fs/write', {
          sessionId: SESSION,
          uri: 'workspace:/bin.dat',
          content: bytes.toString('base64'),
          encoding: 'base64',
        })
      ).status,
    ).toBe(200);
    expect(await readFile(path.join(workspace, 'bin.dat'))).toEqual(bytes);
    const read = await send(server.port, { path: '/api/agent/fs/read?uri=workspace:/bin.dat', token: AGENT });
    expect(read.json).toEqual({
      uri: 'workspace:/bin.dat',
      content: bytes.toString('base64'),
      encoding: 'base64',
      size: 6,
    });
  });
});

describe('onConflict over HTTP', () => {
  it('keeps both on a conflict when asked, and refuses an unknown value with 400 BAD_REQUEST', async () => {
    const turnId = await recordTurn('edit app', { 'workspace:/app.ts': 'export const a = 2;\n' });
    await writeFile(path.join(workspace, 'app.ts'), 'export const a = 3; // mine\n');
    expect((await consolePost(`/api/turns/${turnId}/rollback`)).status).toBe(409);
    const bad = await consolePost(`/api/turns/${turnId}/rollback`, { onConflict: 'merge' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('BAD_REQUEST');
    const plan = await consolePost(`/api/turns/${turnId}/preview`, { onConflict: 'keep-both' });
    expect(plan.json.actions).toEqual([
      expect.objectContaining({ uri: 'workspace:/app.ts', action: 'keep-both', copy: 'workspace:/app.ts.turnback-1' }),
    ]);
    const kept = await consolePost(`/api/turns/${turnId}/rollback`, { onConflict: 'keep-both' });
    expect(kept.status).toBe(200);
    expect(kept.json.keptBoth).toEqual([{ uri: 'workspace:/app.ts', copy: 'workspace:/app.ts.turnback-1' }]);
    expect(await readFile(path.join(workspace, 'app.ts'), 'utf8')).toBe('export const a = 3; // mine\n');
    expect(await readFile(path.join(workspace, 'app.ts.turnback-1'), 'utf8')).toBe('export const a = 1;\n');
  });
});

describe('a command through the server', () => {
  it('the turn lists its first characters; the console route answers all that is kept, for the console token only', async () => {
    const input = await agent('input', {
      sessionId: SESSION,
      platform: 'webui',
      sessionType: 'chat',
      content: 'run it',
    });
    const long = `echo ${'y'.repeat(300)}`;
    const exec = await agent('exec', { sessionId: SESSION, tool: 'Bash', command: long });
    await agent('exec-end', { sessionId: SESSION, execId: exec.json.execId });
    await agent('turn-end', { sessionId: SESSION });
    const turnId = input.json.turnId as string;
    const execId = exec.json.execId as string;
    const [listed] = (await consoleGet(`/api/sessions/${SESSION}/turns`)).json.turns[0].execCommands;
    expect(listed).toMatchObject({ execId, command: long.slice(0, 200), commandBytes: 305, truncated: true });
    const opened = await consoleGet(`/api/turns/${turnId}/commands/${execId}`);
    expect(opened.status).toBe(200);
    expect(opened.json.command).toMatchObject({ execId, command: long, commandBytes: 305 });
    expect(opened.json.command.truncated).toBeUndefined();
    expect((await send(server.port, { path: `/api/turns/${turnId}/commands/${execId}`, token: AGENT })).status).toBe(
      401,
    );
    const missing = await consoleGet(`/api/turns/${turnId}/commands/x_none`);
    expect([missing.status, missing.json.error.code]).toEqual([404, 'COMMAND_NOT_FOUND']);
  });
});

describe('steps over HTTP', () => {
  it('lists the steps hosts named, undoes one, and refuses a bad step list with 400', async () => {
    const input = await agent('input', {
      sessionId: SESSION,
      platform: 'webui',
      sessionType: 'chat',
      content: 'two edits',
    });
    const turnId = input.json.turnId as string;
    expect(
      (
        await agent('fs/write', {
          sessionId: SESSION,
          uri: 'workspace:/app.ts',
          content: 'one\n',
          stepId: 'toolu_a',
          stepTitle: 'Write(app.ts)',
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await agent('fs/write', {
          sessionId: SESSION,
          uri: 'workspace:/two.ts',
          content: 'two\n',
          stepId: 'toolu_b',
          stepTitle: 'Write(two.ts)',
        })
      ).status,
    ).toBe(200);
    await agent('turn-end', { sessionId: SESSION });
    const steps = await consoleGet(`/api/turns/${turnId}/steps`);
    expect(steps.json.steps.map((x: { title: string }) => x.title)).toEqual(['Write(app.ts)', 'Write(two.ts)']);
    expect((await consolePost(`/api/turns/${turnId}/rollback`, { steps: [] })).status).toBe(400);
    expect((await consolePost(`/api/turns/${turnId}/rollback`, { steps: ['1'] })).status).toBe(400);
    const bad = await consolePost(`/api/turns/${turnId}/rollback`, { steps: [3] });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('BAD_REQUEST');
    const undone = await consolePost(`/api/turns/${turnId}/rollback`, { steps: [2] });
    expect(undone.json).toMatchObject({ ok: true, deleted: ['workspace:/two.ts'] });
    expect(await readFile(path.join(workspace, 'app.ts'), 'utf8')).toBe('one\n');
  });
});

describe('compare over HTTP', () => {
  it('answers each changed path between two turns and its diff; a missing parameter is 400, an unknown turn 404', async () => {
    const first = await recordTurn('one', { 'workspace:/app.ts': 'export const a = 2;\n' });
    const second = await recordTurn('two', {
      'workspace:/app.ts': 'export const a = 3;\n',
      'workspace:/new.ts': 'new\n',
    });
    const compared = await consoleGet(`/api/compare?from=${first}&to=${second}`);
    expect(compared.json.files.map((f: { uri: string; change: string }) => [f.uri, f.change])).toEqual([
      ['workspace:/app.ts', 'modified'],
      ['workspace:/new.ts', 'created'],
    ]);
    const diff = await consoleGet(
      `/api/compare/diff?from=${first}&to=${second}&uri=${encodeURIComponent('workspace:/app.ts')}`,
    );
    expect([diff.json.before.text, diff.json.after.text]).toEqual(['export const a = 2;\n', 'export const a = 3;\n']);
    expect((await consoleGet(`/api/compare?from=${first}`)).status).toBe(400);
    expect((await consoleGet(`/api/compare?from=${first}&to=t_unknown`)).json.error.code).toBe('TURN_NOT_FOUND');
  });
});

describe('pins over HTTP', () => {
  it('pins, lists, rewinds to the pin through its session, and unpins', async () => {
    const pinned = await consolePost('/api/pins', { name: 'Known good' });
    expect(pinned.status).toBe(200);
    const pin = pinned.json.pin;
    expect(pin).toMatchObject({ name: 'Known good', sessionId: 'turnback-pins' });
    expect((await consoleGet('/api/pins')).json.pins).toEqual([pin]);
    await recordTurn('after the pin', { 'workspace:/app.ts': 'export const a = 9;\n' });
    const rewound = await consolePost(`/api/sessions/${pin.sessionId}/rewind`, { toTurnId: pin.turnId });
    expect(rewound.json.ok).toBe(true);
    expect(await readFile(path.join(workspace, 'app.ts'), 'utf8')).toBe('export const a = 1;\n');
    expect((await send(server.port, { method: 'DELETE', path: `/api/pins/${pin.turnId}`, token: TOKEN })).json).toEqual(
      { ok: true },
    );
    expect((await consoleGet('/api/pins')).json.pins).toEqual([]);
    expect((await consolePost('/api/pins', { name: 7 })).status).toBe(400);
  });
});
