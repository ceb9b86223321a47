// `turnback mcp` acts as the agent that calls it, not as the person (issue 36 S7, issue 39 item
// 2): its tools, in-process over the SDK's in-memory transport, against the service as a real
// process. The caller's session is the host's (CLAUDE_CODE_SESSION_ID); an undo asked for in its
// active turn undoes the turn before inside the asking turn; it never undoes the person's undo;
// force or keep-both over what someone else changed needs the person's yes (MCP elicitation) or
// is refused with the terminal line the person can run.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Turn } from '../protocol.js';
import { registerTools } from './mcp/tools.js';
import { agentTurn } from './test/agent-turn.js';
import { startRealService, type TestService } from './test/real-service.js';
import { runTerminal, TEST_BIN } from './test/run-terminal.js';

let base: string;
let service: TestService;
let workspace: string;
let n = 0;

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-mcp-agent-')));
  service = await startRealService(base);
}, 60_000);
afterAll(async () => {
  await service?.close();
  await rm(base, { recursive: true, force: true });
});
beforeEach(async () => {
  // A plain folder in the service's home: an agent's event makes it a workspace by itself.
  workspace = path.join(service.env.HOME!, `ws${++n}`);
  await mkdir(workspace);
});

type ToolAnswer = { isError?: boolean; content: { type: string; text: string }[] };
type Elicit = (message: string) => { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };
const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

/** The MCP server of `session` (undefined: a host that does not tell it), and a client that may answer elicitations. */
async function mcpOf(session: string | undefined, elicit?: Elicit) {
  const server = new McpServer({ name: 'turnback', version: 'test' });
  registerTools(server, { cwd: workspace, env: { ...process.env, ...service.env }, bin: TEST_BIN, session });
  const asked: string[] = [];
  const client = new Client({ name: 'host', version: '1' }, { capabilities: elicit ? { elicitation: {} } : {} });
  if (elicit)
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return elicit(request.params.message);
    });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  open.push(client);
  const call = async (name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args, ...(meta ? { _meta: meta } : {}) })) as ToolAnswer;
  return { call, asked };
}
const jsonOf = (answer: ToolAnswer) => JSON.parse(answer.content[0].text);
const read = (name: string) => readFile(path.join(workspace, name), 'utf8');
const put = (name: string, content: string) => writeFile(path.join(workspace, name), content);
const begin = async (sessionId: string, content: string): Promise<string> =>
  (await service.agent('input', { sessionId, platform: 'claude-code', sessionType: 'chat', content }, workspace))
    .turnId;
const end = (sessionId: string) => service.agent('turn-end', { sessionId }, workspace);
const turnsOf = async (sessionId: string): Promise<Turn[]> => {
  const { call } = await mcpOf(sessionId);
  return jsonOf(await call('list_turns', { session: sessionId, limit: 100 })).turns.reverse();
};

describe("undo from the agent's own chat", () => {
  it('previews and undoes the turn before the asking one, inside the asking turn, its later changes kept in it', async () => {
    await put('a.txt', 'a0\n');
    await put('b.txt', 'b0\n');
    const before = await agentTurn(service, workspace, 'chat-1', 'Edit a', { 'a.txt': 'a1\n' });
    const asking = await begin('chat-1', 'undo your last turn');
    const { call } = await mcpOf('chat-1');

    for (const args of [{}, { turn: 'last' }]) {
      const preview = jsonOf(await call('preview_undo', args));
      expect(preview.turn.turnId).toBe(before);
      expect(preview.plan.actions).toMatchObject([{ uri: 'workspace:/a.txt', action: 'restore', conflict: false }]);
    }
    const undone = await call('undo_turn', {}, { 'claudecode/toolUseId': 'toolu_undo_1' });
    expect(undone.isError).toBe(false);
    expect(jsonOf(undone)).toMatchObject({
      turn: { turnId: before },
      result: { ok: true, restored: ['workspace:/a.txt'], rollbackTurnId: asking },
    });
    expect(await read('a.txt')).toBe('a0\n');
    // The asking turn itself is never the one undone.
    expect((await call('undo_turn', { turn: asking })).content[0].text).toMatch(/^TURN_ACTIVE: .*the turn asking/);
    await service.agent('fs/write', { sessionId: 'chat-1', uri: 'workspace:/b.txt', content: 'b1\n' }, workspace);
    await end('chat-1');

    const turns = await turnsOf('chat-1');
    expect(turns.map((t) => [t.number, t.kind, t.status, t.fileCount])).toEqual([
      [1, 'agent', 'rolled-back', 1],
      [2, 'agent', 'committed', 2],
    ]);
    expect(turns[0].rolledBackBy).toBe(asking);
    expect(await read('b.txt')).toBe('b1\n');
    const steps = jsonOf(await call('show_turn', { turn: asking })).steps;
    expect(steps.map((s: { title: string }) => s.title)).toContain('Undo of #1');
  });

  it("finds the asking session by its open call of this tool when the host's session id is not one here (--continue)", async () => {
    await put('k.txt', 'k0\n');
    const before = await agentTurn(service, workspace, 'hooked', 'Edit k', { 'k.txt': 'k1\n' });
    const asking = await begin('hooked', 'undo it');
    await agentTurn(service, workspace, 'bystander', 'Elsewhere', { 'z.txt': 'z\n' });
    const { execId } = await service.agent(
      'exec',
      { sessionId: 'hooked', tool: 'mcp__turnback__undo_turn', command: '{}' },
      workspace,
    );
    const { call } = await mcpOf('a-session-the-hooks-never-named');
    const undone = jsonOf(await call('undo_turn'));
    expect(undone).toMatchObject({ turn: { turnId: before }, result: { ok: true, rollbackTurnId: asking } });
    expect(await read('k.txt')).toBe('k0\n');
    await service.agent('exec-end', { sessionId: 'hooked', execId }, workspace);
    await end('hooked');
  });

  it("defaults to the caller's session, not the most recently active one", async () => {
    await put('mine.txt', 'm0\n');
    await put('theirs.txt', 't0\n');
    await agentTurn(service, workspace, 'caller', 'Mine', { 'mine.txt': 'm1\n' });
    await agentTurn(service, workspace, 'other', 'Theirs', { 'theirs.txt': 't1\n' });
    const { call } = await mcpOf('caller');
    expect(jsonOf(await call('undo_turn')).result).toMatchObject({ ok: true, restored: ['workspace:/mine.txt'] });
    expect(await read('theirs.txt')).toBe('t1\n');
  });
});

describe('the MCP tools act as the agent, not the person', () => {
  it("never undoes a rollback turn the person made (the person's undo stays)", async () => {
    await put('r.txt', 'r0\n');
    await agentTurn(service, workspace, 'agent-1', 'Rejected work', { 'r.txt': 'r1\n' });
    const undo = await runTerminal('undo', ['--yes'], { cwd: workspace, env: service.env });
    expect(undo.code).toBe(0);
    const rollback = (await turnsOf('agent-1')).find((t) => t.kind === 'rollback')!;
    const { call } = await mcpOf('agent-1');
    const answer = await call('undo_turn', { turn: String(rollback.number) });
    expect(answer).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^NOT_AGENT_TURN: /) }] });
    const unknown = await mcpOf(undefined);
    expect((await unknown.call('undo_turn', { turn: rollback.turnId })).content[0].text).toMatch(/^NOT_AGENT_TURN: /);
    expect(await read('r.txt')).toBe('r0\n');
  });

  it("refuses force and keep-both over the person's hand edit, with the line the person can run", async () => {
    await put('h.txt', 'h0\n');
    const turnId = await agentTurn(service, workspace, 'agent-2', 'Edit h', { 'h.txt': 'h1\n' });
    await put('h.txt', 'edited by hand\n');
    const { call } = await mcpOf('agent-2');
    for (const args of [{ force: true }, { keepBoth: true }]) {
      const answer = await call('undo_turn', args);
      expect(answer.isError).toBe(true);
      expect(answer.content[0].text).toMatch(/^NEEDS_PERSON: .*h\.txt.*only the person can decide/);
      expect(answer.content[0].text).toContain(
        `cd ${workspace} && turnback undo ${turnId} --session agent-2 ${'force' in args ? '--force' : '--keep-both'}`,
      );
    }
    expect((await call('restore_files', { paths: ['h.txt'], fromTurn: '1', force: true })).content[0].text).toMatch(
      /^NEEDS_PERSON: /,
    );
    expect(await read('h.txt')).toBe('edited by hand\n');
  });

  it('asks the person through elicitation when the host can: a no changes nothing, a yes overwrites', async () => {
    await put('e.txt', 'e0\n');
    await agentTurn(service, workspace, 'agent-3', 'Edit e', { 'e.txt': 'e1\n' });
    await put('e.txt', 'mine\n');
    const no = await mcpOf('agent-3', () => ({ action: 'decline' }));
    expect((await no.call('undo_turn', { force: true })).content[0].text).toMatch(
      /^NEEDS_PERSON: .*the person said no/,
    );
    expect(no.asked).toEqual([expect.stringMatching(/overwrite 1 path\(s\) it did not change last: e\.txt/)]);
    expect(await read('e.txt')).toBe('mine\n');
    const yes = await mcpOf('agent-3', () => ({ action: 'accept', content: { allow: true } }));
    expect(jsonOf(await yes.call('undo_turn', { force: true })).result).toMatchObject({ ok: true });
    expect(yes.asked).toHaveLength(1);
    expect(await read('e.txt')).toBe('e0\n');
  });

  it("marks an undo made during another session's active turn as concurrent on that turn", async () => {
    await put('c.txt', 'c0\n');
    await put('d.txt', 'd0\n');
    await agentTurn(service, workspace, 'agent-5', 'Edit c', { 'c.txt': 'c1\n' });
    await agentTurn(service, workspace, 'agent-6', 'Edit d', { 'd.txt': 'd1\n' });
    const busy = await begin('busy', 'a long turn');
    const { call } = await mcpOf('agent-5');
    const plain = jsonOf(await call('undo_turn')).result;
    expect(plain).toMatchObject({ ok: true, restored: ['workspace:/c.txt'] });
    const asking = await begin('agent-6', 'undo your last turn');
    expect(jsonOf(await (await mcpOf('agent-6')).call('undo_turn')).result).toMatchObject({ rollbackTurnId: asking });
    await end('agent-6');
    await end('busy');
    const [turn] = await turnsOf('busy');
    expect(turn.turnId).toBe(busy);
    expect(turn.concurrent).toEqual([plain.rollbackTurnId, asking]);
    expect((await turnsOf('agent-6')).every((t) => t.concurrent === undefined)).toBe(true);
  });

  it("forces over the agent's own later change without asking", async () => {
    await put('o.txt', 'o0\n');
    await agentTurn(service, workspace, 'agent-4', 'First', { 'o.txt': 'o1\n' });
    await agentTurn(service, workspace, 'agent-4', 'Second', { 'o.txt': 'o2\n' });
    const { call, asked } = await mcpOf('agent-4', () => ({ action: 'decline' }));
    expect((await call('undo_turn', { turn: '1' })).content[0].text).toMatch(/^CONFLICT: /);
    expect(jsonOf(await call('undo_turn', { turn: '1', force: true })).result).toMatchObject({ ok: true });
    expect(asked).toEqual([]);
    expect(await read('o.txt')).toBe('o0\n');
  });
});
