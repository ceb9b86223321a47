// Every route over a real socket (fake engine): success shapes and the statuses of each error code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError } from '../engine/errors.js';
import { send, type TestRequest } from './test/client.js';
import { AGENT_TOKEN, CONSOLE_TOKEN, startFakeServer, type Harness } from './test/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startFakeServer();
});
afterAll(async () => {
  await h.close();
});

const asConsole = (req: TestRequest) => send(h.server.port, { token: CONSOLE_TOKEN, ...req });
const asAgent = (req: TestRequest) => send(h.server.port, { token: AGENT_TOKEN, ...req });
const post = (path: string, body: unknown = {}) => asConsole({ method: 'POST', path, body });

describe('console routes', () => {
  it('answer their success shapes', async () => {
    expect((await asConsole({ path: '/api/health' })).json).toEqual({ ok: true, version: expect.any(String) });
    expect((await asConsole({ path: '/api/store' })).json).toEqual({
      sessions: 1,
      turns: 1,
      blobs: 1,
      bytes: 1,
      dataDir: '/tmp/fake-data',
      retention: { keepDays: 30, keepSessions: 0 },
      pruned: 0,
      budget: { bytes: 2147483648, used: 0, prunedForBudget: 0, source: 'default' },
      unprotected: [],
      index: { state: 'whole', filesFound: 1, filesIndexed: 1, bytesStored: 1, percent: 100 },
      watcher: { state: 'none' },
    });
    expect((await asConsole({ path: '/api/sessions' })).json.sessions[0].sessionId).toBe('s1');
    expect((await asConsole({ path: '/api/sessions/s1/turns?limit=10' })).json.turns[0].turnId).toBe('t1');
    expect((await asConsole({ path: '/api/sessions/s1/messages' })).json.messages[0].id).toBe('m1');
    expect(Object.keys((await asConsole({ path: '/api/turns/t1' })).json).sort()).toEqual(['entries', 'files', 'turn']);
    const diff = await asConsole({ path: `/api/turns/t1/diff?uri=${encodeURIComponent('workspace:/a.txt')}` });
    expect(diff.json).toMatchObject({ uri: 'workspace:/a.txt', before: { exists: false }, after: { text: 'a' } });
    const a = encodeURIComponent('workspace:/a.txt');
    expect((await asConsole({ path: `/api/turns/t1/diffs?uri=${a}&uri=${a}` })).json).toEqual({
      diffs: [diff.json, diff.json],
    });
    expect((await post('/api/turns/t1/preview', { withChat: true })).json).toMatchObject({
      turnId: 't1',
      actions: expect.any(Array),
      conflicts: [],
    });
    expect((await post('/api/turns/t1/rollback')).json).toMatchObject({ ok: true, turnId: 't1', rollbackTurnId: 't2' });
    expect((await post('/api/turns/t1/rollback-with-chat')).json).toMatchObject({ ok: true, deletedMessages: 1 });
    expect((await post('/api/sessions/s1/rewind/preview', { toTurnId: 't1' })).json).toMatchObject({ turnId: 't1' });
    expect((await post('/api/sessions/s1/rewind', { toTurnId: 't1', withChat: true })).json).toMatchObject({
      ok: true,
    });
    expect((await asConsole({ method: 'DELETE', path: '/api/sessions/s1' })).json).toEqual({ ok: true });
  });

  it('answer 404 with the engine code for an unknown turn, session or file', async () => {
    const turn = await asConsole({ path: '/api/turns/nope' });
    expect([turn.status, turn.json.error.code]).toEqual([404, 'TURN_NOT_FOUND']);
    const session = await asConsole({ path: '/api/sessions/nope/turns' });
    expect([session.status, session.json.error.code]).toEqual([404, 'SESSION_NOT_FOUND']);
    const deleted = await asConsole({ method: 'DELETE', path: '/api/sessions/nope' });
    expect([deleted.status, deleted.json.error.code]).toEqual([404, 'SESSION_NOT_FOUND']);
    const file = await asConsole({ path: `/api/turns/t1/diff?uri=${encodeURIComponent('workspace:/other.txt')}` });
    expect([file.status, file.json.error.code]).toEqual([404, 'FILE_NOT_FOUND']);
    const some = await asConsole({
      path: `/api/turns/t1/diffs?uri=${encodeURIComponent('workspace:/a.txt')}&uri=${encodeURIComponent('workspace:/other.txt')}`,
    });
    expect([some.status, some.json.error.code]).toEqual([404, 'FILE_NOT_FOUND']);
    for (const query of ['', `?${Array.from({ length: 101 }, () => 'uri=workspace%3A%2Fa.txt').join('&')}`]) {
      const refused = await asConsole({ path: `/api/turns/t1/diffs${query}` });
      expect([refused.status, refused.json.error.code]).toEqual([400, 'BAD_REQUEST']);
    }
    const route = await asConsole({ path: '/api/turns/t1/nothing' });
    expect([route.status, route.json.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('answer 400 BAD_URI for a non-canonical uri and BAD_REQUEST for a bad session id in the path', async () => {
    const badUri = await asConsole({
      path: `/api/turns/t1/diff?uri=${encodeURIComponent('workspace:/../etc/passwd')}`,
    });
    expect([badUri.status, badUri.json.error.code]).toEqual([400, 'BAD_URI']);
    for (const path of [
      '/api/sessions/a%20b/turns',
      '/api/sessions/a%2Fb/messages',
      `/api/sessions/${'x'.repeat(201)}/turns`,
      '/api/sessions/%ZZ/turns',
    ]) {
      const answer = await asConsole({ path });
      expect([answer.status, answer.json.error.code], path).toEqual([400, 'BAD_REQUEST']);
    }
  });

  it('answer 409 CONFLICT with its conflicts, and TURN_ACTIVE', async () => {
    h.engine.failNext('rollback', new ConflictError(['workspace:/drift.txt']));
    const conflict = await post('/api/turns/t1/rollback');
    expect(conflict.status).toBe(409);
    expect(conflict.json.error).toMatchObject({ code: 'CONFLICT', conflicts: ['workspace:/drift.txt'] });
    await asAgent({
      method: 'POST',
      path: '/api/agent/input',
      body: { sessionId: 's1', platform: 'webui', sessionType: 'chat', content: 'go' },
    });
    for (const [path, body] of [
      ['/api/turns/t1/rollback', {}],
      ['/api/turns/t1/rollback-with-chat', {}],
      ['/api/sessions/s1/rewind', { toTurnId: 't1' }],
    ] as const) {
      const active = await post(path, body);
      expect([active.status, active.json.error.code], path).toEqual([409, 'TURN_ACTIVE']);
    }
    await asAgent({ method: 'POST', path: '/api/agent/turn-end', body: { sessionId: 's1' } });
    expect((await post('/api/turns/t1/rollback')).status).toBe(200);
  });

  it('answer 500 INTERNAL without a stack for an unexpected failure, and log the stack', async () => {
    const failure = Object.assign(new Error('disk on fire'), { code: 'EIO' });
    h.engine.failNext('listSessions', failure);
    const answer = await asConsole({ path: '/api/sessions' });
    expect(answer.status).toBe(500);
    expect(answer.json).toEqual({ error: { code: 'INTERNAL', message: 'internal error' } });
    expect(answer.text).not.toContain('disk on fire');
    expect(h.errors.some((line) => line.includes('disk on fire') && line.includes('at '))).toBe(true);
  });
});

describe('agent routes', () => {
  it('answer their success shapes', async () => {
    const session = { sessionId: 's1' };
    expect(
      (
        await asAgent({
          method: 'POST',
          path: '/api/agent/input',
          body: { ...session, platform: 'webui', sessionType: 'chat', content: 'hi' },
        })
      ).json,
    ).toEqual({ turnId: 't1', messageId: 'm1' });
    expect(
      (
        await asAgent({
          method: 'POST',
          path: '/api/agent/message',
          body: { ...session, role: 'assistant', content: 'ok' },
        })
      ).json,
    ).toEqual({ messageId: 'm2' });
    expect(
      (await asAgent({ method: 'POST', path: '/api/agent/exec', body: { ...session, tool: 'exec', command: 'ls' } }))
        .json,
    ).toEqual({ turnId: 't1', execId: 'x1' });
    expect(
      (
        await asAgent({
          method: 'POST',
          path: '/api/agent/before-mutate',
          body: { ...session, op: 'write', uri: 'workspace:/a' },
        })
      ).json,
    ).toEqual({ recorded: true });
    expect(
      (
        await asAgent({
          method: 'POST',
          path: '/api/agent/fs/write',
          body: { ...session, uri: 'workspace:/a', content: 'x' },
        })
      ).json,
    ).toEqual({ ok: true });
    expect(
      (await asAgent({ method: 'POST', path: '/api/agent/fs/mkdir', body: { ...session, uri: 'workspace:/d' } })).json,
    ).toEqual({ ok: true });
    expect(
      (
        await asAgent({
          method: 'POST',
          path: '/api/agent/fs/rename',
          body: { ...session, from: 'workspace:/a', to: 'workspace:/b' },
        })
      ).json,
    ).toEqual({ ok: true });
    expect(
      (
        await asAgent({
          method: 'POST',
          path: '/api/agent/fs/move',
          body: { ...session, from: 'workspace:/b', to: 'workspace:/d/b' },
        })
      ).json,
    ).toEqual({ ok: true });
    expect((await asAgent({ path: '/api/agent/fs/read?uri=workspace:/a' })).json).toEqual({
      uri: 'workspace:/a',
      content: 'x',
      encoding: 'utf8',
      size: 1,
    });
    expect(
      (await asAgent({ method: 'POST', path: '/api/agent/fs/delete', body: { ...session, uri: 'workspace:/a' } })).json,
    ).toEqual({ ok: true });
    expect((await asAgent({ method: 'POST', path: '/api/agent/turn-end', body: session })).json).toEqual({
      turnId: 't1',
    });
  });

  it('POST /api/budget sets or clears the store budget, for the console token only; anything but bytes or null is 400', async () => {
    expect((await post('/api/budget', { bytes: 5 * 1024 * 1024 })).json).toEqual({
      budget: { bytes: 5 * 1024 * 1024, used: 0, prunedForBudget: 0, source: 'workspace' },
    });
    expect((await post('/api/budget', { bytes: null })).json.budget).toMatchObject({ source: 'default' });
    for (const bytes of [0, -1, 1.5, '5MiB', undefined]) {
      const bad = await post('/api/budget', { bytes });
      expect([bad.status, bad.json.error.code]).toEqual([400, 'BAD_REQUEST']);
    }
    expect((await asAgent({ method: 'POST', path: '/api/budget', body: { bytes: 1 } })).status).toBe(401);
  });

  it('GET /api/file reads a path as fs/read does, for the console token only', async () => {
    const missing = await asConsole({ path: '/api/file?uri=workspace:/missing' });
    expect([missing.status, missing.json.error.code]).toEqual([404, 'FILE_NOT_FOUND']);
    const noUri = await asConsole({ path: '/api/file' });
    expect([noUri.status, noUri.json.error.code]).toEqual([400, 'BAD_REQUEST']);
    const agentToken = await asAgent({ path: '/api/file?uri=workspace:/missing' });
    expect(agentToken.status).toBe(401);
  });

  it('answer 404 FILE_NOT_FOUND, 400 BAD_URI, 400 for a bad session id and 405 for a GET of a POST route', async () => {
    const missing = await asAgent({ path: '/api/agent/fs/read?uri=workspace:/missing' });
    expect([missing.status, missing.json.error.code]).toEqual([404, 'FILE_NOT_FOUND']);
    const badUri = await asAgent({
      method: 'POST',
      path: '/api/agent/fs/write',
      body: { sessionId: 's1', uri: 'workspace:/a/../b', content: '' },
    });
    expect([badUri.status, badUri.json.error.code]).toEqual([400, 'BAD_URI']);
    const badSession = await asAgent({ method: 'POST', path: '/api/agent/turn-end', body: { sessionId: 'has space' } });
    expect([badSession.status, badSession.json.error.code]).toEqual([400, 'BAD_REQUEST']);
    const wrongMethod = await asAgent({ path: '/api/agent/input' });
    expect([wrongMethod.status, wrongMethod.json.error.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
    const unknown = await asAgent({ method: 'POST', path: '/api/agent/nothing', body: {} });
    expect([unknown.status, unknown.json.error.code]).toEqual([404, 'NOT_FOUND']);
  });
});
