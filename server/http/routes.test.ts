// Route handlers are plain functions: called here directly, without a socket.
import { describe, expect, it } from 'vitest';
import * as agent from './routes/agent.js';
import * as consoleRoutes from './routes/console.js';
import { createFakeEngine } from './test/fake-engine.js';
import type { ApiRequest, RouteDeps } from './types.js';

function call(handler: (r: ApiRequest, d: RouteDeps) => unknown, request: Partial<ApiRequest>) {
  const engine = createFakeEngine();
  const deps: RouteDeps = { engine, version: '9.9.9' };
  const run = async () => handler({ params: {}, query: new URLSearchParams(), body: {}, ...request }, deps);
  return { engine, run };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}

describe('console handlers', () => {
  it('health answers ok and the version', async () => {
    expect(await call(consoleRoutes.health, {}).run()).toEqual({ body: { ok: true, version: '9.9.9' } });
  });

  it('turns passes limit and before on, and refuses bad ones', async () => {
    const { engine, run } = call(consoleRoutes.listTurns, {
      params: { sessionId: 's1' },
      query: new URLSearchParams('limit=5&before=9'),
    });
    expect(await run()).toMatchObject({ body: { turns: [{ turnId: 't1' }] } });
    expect(engine.calls.at(-1)).toEqual({ method: 'listTurns', args: ['s1', { limit: 5, before: 9 }] });
    for (const query of ['limit=0', 'limit=-1', 'limit=abc', 'limit=1.5', 'before=x', 'before=-3', 'limit=']) {
      const bad = call(consoleRoutes.listTurns, { params: { sessionId: 's1' }, query: new URLSearchParams(query) });
      expect(await codeOf(bad.run()), query).toBe('BAD_REQUEST');
      expect(bad.engine.calls).toHaveLength(0);
    }
  });

  it('turns with ?q= searches by prompt text and path, paged alike', async () => {
    const { engine, run } = call(consoleRoutes.listTurns, {
      params: { sessionId: 's1' },
      query: new URLSearchParams('q=ADD&limit=5&before=9'),
    });
    expect(await run()).toMatchObject({ body: { turns: [{ turnId: 't1' }] } });
    expect(engine.calls.at(-1)).toEqual({ method: 'searchTurns', args: ['s1', 'ADD', { limit: 5, before: 9 }] });
    const none = call(consoleRoutes.listTurns, { params: { sessionId: 's1' }, query: new URLSearchParams('q=zzz') });
    expect(await none.run()).toEqual({ body: { turns: [] } });
    const empty = call(consoleRoutes.listTurns, { params: { sessionId: 's1' }, query: new URLSearchParams('q=') });
    await empty.run();
    expect(empty.engine.calls.at(-1)?.method).toBe('listTurns');
  });

  it("sessions with ?turns= carry the newest session's first page of turns", async () => {
    const { engine, run } = call(consoleRoutes.listSessions, { query: new URLSearchParams('turns=50') });
    expect(await run()).toMatchObject({
      body: { sessions: [{ sessionId: 's1' }], firstTurns: { sessionId: 's1', turns: [{ turnId: 't1' }] } },
    });
    expect(engine.calls.at(-1)).toEqual({ method: 'listTurns', args: ['s1', { limit: 50 }] });
    expect(await call(consoleRoutes.listSessions, {}).run()).not.toHaveProperty('body.firstTurns');
    expect(await codeOf(call(consoleRoutes.listSessions, { query: new URLSearchParams('turns=x') }).run())).toBe(
      'BAD_REQUEST',
    );
  });

  it('refuses a session id outside [A-Za-z0-9._:@-]{1,200}', async () => {
    for (const sessionId of ['', 'a b', 'a/b', 'é', 'x'.repeat(201), 'a\0b']) {
      const bad = call(consoleRoutes.listMessages, { params: { sessionId } });
      expect(await codeOf(bad.run()), JSON.stringify(sessionId)).toBe('BAD_REQUEST');
    }
    const ok = call(consoleRoutes.listMessages, { params: { sessionId: 'A.z_0:9@-' + 'x'.repeat(191) } });
    expect(await codeOf(ok.run())).toBe('SESSION_NOT_FOUND');
  });

  it('messages passes turnId, limit and before on', async () => {
    const { engine, run } = call(consoleRoutes.listMessages, {
      params: { sessionId: 's1' },
      query: new URLSearchParams('turnId=t1&limit=2&before=1700000000000'),
    });
    expect(await run()).toMatchObject({ body: { messages: [{ id: 'm1' }] } });
    expect(engine.calls.at(-1)?.args).toEqual(['s1', { turnId: 't1', limit: 2, before: 1700000000000 }]);
  });

  it('diff needs ?uri', async () => {
    expect(await codeOf(call(consoleRoutes.getDiff, { params: { turnId: 't1' } }).run())).toBe('BAD_REQUEST');
  });

  it('rollback checks the body fields', async () => {
    for (const body of [[], null, 'x', { uris: 'workspace:/a' }, { uris: [1] }, { force: 'yes' }]) {
      const bad = call(consoleRoutes.rollbackTurn, { params: { turnId: 't1' }, body });
      expect(await codeOf(bad.run()), JSON.stringify(body)).toBe('BAD_REQUEST');
    }
    const { engine, run } = call(consoleRoutes.rollbackTurn, {
      params: { turnId: 't1' },
      body: { uris: ['workspace:/a.txt'], force: true },
    });
    await run();
    expect(engine.calls.at(-1)).toEqual({
      method: 'rollback',
      args: ['t1', { uris: ['workspace:/a.txt'], force: true }],
    });
  });

  it('rewind needs toTurnId', async () => {
    expect(await codeOf(call(consoleRoutes.rewind, { params: { sessionId: 's1' }, body: {} }).run())).toBe(
      'BAD_REQUEST',
    );
    expect(
      await codeOf(call(consoleRoutes.previewRewind, { params: { sessionId: 's1' }, body: { toTurnId: 3 } }).run()),
    ).toBe('BAD_REQUEST');
  });
});

describe('agent handlers', () => {
  it('input checks every field', async () => {
    const good = { sessionId: 's1', platform: 'webui', sessionType: 'chat', content: 'hi' };
    for (const body of [
      { ...good, sessionId: 'bad id' },
      { ...good, platform: '' },
      { ...good, sessionType: 1 },
      { ...good, content: undefined },
    ]) {
      expect(await codeOf(call(agent.input, { body }).run()), JSON.stringify(body)).toBe('BAD_REQUEST');
    }
    expect(await call(agent.input, { body: good }).run()).toEqual({ body: { turnId: 't1', messageId: 'm1' } });
  });

  it('message accepts assistant, tool and system only', async () => {
    for (const role of ['assistant', 'tool', 'system']) {
      expect(
        await codeOf(call(agent.message, { body: { sessionId: 's1', role, content: 'x' } }).run()),
      ).toBeUndefined();
    }
    expect(await codeOf(call(agent.message, { body: { sessionId: 's1', role: 'user', content: 'x' } }).run())).toBe(
      'BAD_REQUEST',
    );
  });

  it('before-mutate accepts the five ops only', async () => {
    expect(
      await codeOf(call(agent.beforeMutate, { body: { sessionId: 's1', op: 'chmod', uri: 'workspace:/a' } }).run()),
    ).toBe('BAD_REQUEST');
    expect(
      await call(agent.beforeMutate, {
        body: { sessionId: 's1', op: 'rename', uri: 'workspace:/a', to: 'workspace:/b' },
      }).run(),
    ).toEqual({ body: { recorded: false } });
  });

  it('fs/write decodes base64 and refuses what is not base64', async () => {
    const { engine, run } = call(agent.fsWrite, {
      body: {
        sessionId: 's1',
        uri: 'workspace:/b.bin',
        content: Buffer.from([0, 1, 255]).toString('base64'),
        encoding: 'base64',
      },
    });
    expect(await run()).toEqual({ body: { ok: true } });
    expect([...(engine.files.get('workspace:/b.bin') ?? [])]).toEqual([0, 1, 255]);
    expect(
      await codeOf(
        call(agent.fsWrite, {
          body: { sessionId: 's1', uri: 'workspace:/b', content: 'no!base64', encoding: 'base64' },
        }).run(),
      ),
    ).toBe('BAD_REQUEST');
    expect(
      await codeOf(
        call(agent.fsWrite, { body: { sessionId: 's1', uri: 'workspace:/b', content: 'x', encoding: 'latin1' } }).run(),
      ),
    ).toBe('BAD_REQUEST');
  });

  it('fs/read answers utf8 for text and base64 for binary or invalid UTF-8', async () => {
    const { engine, run } = call(agent.fsRead, { query: new URLSearchParams('uri=workspace:/t.txt') });
    engine.files.set('workspace:/t.txt', new TextEncoder().encode('héllo'));
    expect(await run()).toEqual({ body: { uri: 'workspace:/t.txt', content: 'héllo', encoding: 'utf8', size: 6 } });
    engine.files.set('workspace:/t.txt', new Uint8Array([104, 0, 105]));
    expect(await run()).toEqual({ body: { uri: 'workspace:/t.txt', content: 'aABp', encoding: 'base64', size: 3 } });
    engine.files.set('workspace:/t.txt', new Uint8Array([0xc3, 0x28]));
    expect(await run()).toMatchObject({ body: { encoding: 'base64', content: 'wyg=' } });
    engine.files.delete('workspace:/t.txt');
    expect(await codeOf(run())).toBe('FILE_NOT_FOUND');
  });

  it('fs/delete passes recursive on', async () => {
    const { engine, run } = call(agent.fsDelete, { body: { sessionId: 's1', uri: 'workspace:/dir', recursive: true } });
    await run();
    expect(engine.calls.at(-1)).toEqual({
      method: 'delete',
      args: ['workspace:/dir', { sessionId: 's1', recursive: true }],
    });
  });
});
