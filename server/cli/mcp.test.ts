// `turnback mcp` through the SDK's own client over stdio: the tools against the service as a real process.
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { treeAsText } from '../testkit/tree.js';
import { agentTurn } from './test/agent-turn.js';
import { startRealService, type TestService } from './test/real-service.js';
import { TEST_BIN } from './test/run-terminal.js';

let base: string;
let workspace: string;
let service: TestService;
let client: Client;
const SESSION = 'session-mcp-1';

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-mcp-')));
  service = await startRealService(base);
  // A plain folder in the service's home: an agent's event makes it a workspace by itself.
  workspace = path.join(service.env.HOME!, 'workspace');
  await mkdir(workspace);
  const env = service.env as Record<string, string>;
  const [command, ...args] = TEST_BIN;
  client = new Client({ name: 'turnback-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command,
      args: [...args, 'mcp'],
      cwd: workspace,
      env: { ...getDefaultEnvironment(), ...env },
      stderr: 'pipe',
    }),
  );
}, 60_000);

afterAll(async () => {
  await client?.close();
  await service?.close();
  await rm(base, { recursive: true, force: true });
});

type ToolAnswer = { isError?: boolean; content: { type: string; text: string }[] };
const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as ToolAnswer;
const jsonOf = (answer: ToolAnswer) => JSON.parse(answer.content[0].text);

describe('turnback mcp', () => {
  it('offers the nine tools, read ones marked read-only', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'compare',
      'diff_turn',
      'list_pins',
      'list_turns',
      'pin',
      'preview_undo',
      'restore_files',
      'show_turn',
      'undo_turn',
    ]);
    for (const name of ['list_pins', 'compare'])
      expect(tools.find((tool) => tool.name === name)?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((tool) => tool.name === 'list_turns')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((tool) => tool.name === 'undo_turn')?.annotations?.destructiveHint).toBe(true);
  });

  it('lists, shows, diffs, previews and undoes a turn exactly; restores chosen files; never undoes an active turn', async () => {
    await writeFile(path.join(workspace, 'a.txt'), 'a\n');
    await writeFile(path.join(workspace, 'b.txt'), 'b\n');
    const start = await treeAsText(workspace);
    const first = await agentTurn(service, workspace, SESSION, 'Edit both', { 'a.txt': 'A\n', 'b.txt': 'B\n' });
    const second = await agentTurn(service, workspace, SESSION, 'Add c', { 'c.txt': 'c\n' });
    const afterTwo = await treeAsText(workspace);

    expect(jsonOf(await call('list_turns')).turns.map((t: { turnId: string }) => t.turnId)).toEqual([second, first]);
    expect(jsonOf(await call('show_turn', { turn: '1' })).files.map((f: { uri: string }) => f.uri)).toEqual([
      'workspace:/a.txt',
      'workspace:/b.txt',
    ]);
    expect((await call('diff_turn', { turn: first, paths: ['a.txt'] })).content[0].text).toContain(
      '--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-a\n+A\n',
    );

    const preview = jsonOf(await call('preview_undo'));
    expect(preview.turn.turnId).toBe(second);
    expect(preview.plan.actions).toMatchObject([{ uri: 'workspace:/c.txt', action: 'delete', conflict: false }]);
    expect(await treeAsText(workspace)).toEqual(afterTwo);

    const undone = await call('undo_turn');
    expect(undone.isError).toBe(false);
    expect(jsonOf(undone).result).toMatchObject({ ok: true, deleted: ['workspace:/c.txt'] });

    const restored = jsonOf(await call('restore_files', { paths: ['workspace:/b.txt'], fromTurn: '1' }));
    expect(restored.result.restored).toEqual(['workspace:/b.txt']);
    expect(await readFile(path.join(workspace, 'a.txt'), 'utf8')).toBe('A\n');
    expect(jsonOf(await call('undo_turn', { turn: '1' })).result.ok).toBe(true);
    expect(await treeAsText(workspace)).toEqual(start);

    await service.agent(
      'input',
      { sessionId: SESSION, platform: 'claude-code', sessionType: 'chat', content: 'Still working' },
      workspace,
    );
    const active = await call('undo_turn');
    expect(active.isError).toBe(true);
    expect(active.content[0].text).toMatch(/^TURN_ACTIVE: /);
    await service.agent('turn-end', { sessionId: SESSION }, workspace);
  });

  it('answers a conflict or an unknown turn as a tool error, changing nothing', async () => {
    await writeFile(path.join(workspace, 'd.txt'), 'd\n');
    await agentTurn(service, workspace, SESSION, 'Edit d', { 'd.txt': 'D\n' });
    await writeFile(path.join(workspace, 'd.txt'), 'mine\n');
    const conflict = await call('undo_turn', { turn: 'last' });
    expect(conflict).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^CONFLICT: /) }] });
    expect(await readFile(path.join(workspace, 'd.txt'), 'utf8')).toBe('mine\n');
    expect((await call('show_turn', { turn: '99' })).content[0].text).toMatch(/^TURN_NOT_FOUND: /);
    expect(
      (await call('undo_turn', { turn: 'last', paths: ['d.txt'], withChat: true, force: true })).content[0].text,
    ).toMatch(/^USAGE: withChat undoes a whole turn/);
    expect((await call('restore_files', { paths: ['../outside.txt'], fromTurn: 'last' })).content[0].text).toMatch(
      /^USAGE: .* is not a path inside the workspace/,
    );
    expect(await readFile(path.join(workspace, 'd.txt'), 'utf8')).toBe('mine\n');
  });

  it('undoes chosen steps (a later step named as the conflict), keeps both, pins, lists pins and compares two points', async () => {
    await writeFile(path.join(workspace, 's.txt'), 's0\n');
    await writeFile(path.join(workspace, 't.txt'), 't0\n');
    const { turnId } = await service.agent(
      'input',
      { sessionId: SESSION, platform: 'claude-code', sessionType: 'chat', content: 'Steps' },
      workspace,
    );
    const write = (uri: string, content: string, stepId: string, stepTitle: string) =>
      service.agent(
        'fs/write',
        { sessionId: SESSION, uri: `workspace:/${uri}`, content, stepId, stepTitle },
        workspace,
      );
    await write('s.txt', 's1\n', 'mcp-1', 'Edit(s.txt)');
    await write('t.txt', 't1\n', 'mcp-2', 'Edit(t.txt)');
    await write('s.txt', 's2\n', 'mcp-3', 'Edit(s.txt) again');
    await service.agent('turn-end', { sessionId: SESSION }, workspace);

    expect(jsonOf(await call('show_turn', { turn: turnId })).steps.map((s: { title: string }) => s.title)).toEqual([
      'Edit(s.txt)',
      'Edit(t.txt)',
      'Edit(s.txt) again',
    ]);
    const step2 = jsonOf(await call('undo_turn', { turn: turnId, steps: [2] }));
    expect(step2.result).toMatchObject({ ok: true, restored: ['workspace:/t.txt'] });
    expect(await readFile(path.join(workspace, 't.txt'), 'utf8')).toBe('t0\n');
    expect(await readFile(path.join(workspace, 's.txt'), 'utf8')).toBe('s2\n');
    const plan = jsonOf(await call('preview_undo', { turn: turnId, steps: [1] })).plan;
    expect(plan.actions).toMatchObject([
      { uri: 'workspace:/s.txt', conflict: true, conflictStep: { index: 3, title: 'Edit(s.txt) again' } },
    ]);
    expect((await call('undo_turn', { turn: turnId, steps: [1] })).content[0].text).toMatch(/^CONFLICT: /);
    expect((await call('undo_turn', { turn: turnId, steps: [1], paths: ['s.txt'] })).content[0].text).toMatch(
      /^USAGE: choose steps or paths/,
    );

    const pinned = jsonOf(await call('pin', { name: 'before mine' }));
    expect(pinned.pin).toMatchObject({ name: 'before mine', sessionId: 'turnback-pins' });
    expect(jsonOf(await call('list_pins')).pins.map((p: { turnId: string }) => p.turnId)).toEqual([pinned.pin.turnId]);
    const after = await agentTurn(service, workspace, SESSION, 'After the pin', { 't.txt': 't9\n' });
    expect((await call('compare', { from: 'before mine', to: after })).content[0].text).toBe(
      'diff --turnback a/t.txt b/t.txt\n--- a/t.txt\n+++ b/t.txt\n@@ -1,1 +1,1 @@\n-t0\n+t9\n',
    );

    // Keep-both over a later agent turn's change (over a hand edit it needs the person: mcp-as-agent.test.ts).
    await agentTurn(service, workspace, SESSION, 'Later', { 't.txt': 'mine\n' });
    const kept = jsonOf(await call('undo_turn', { turn: after, keepBoth: true }));
    expect(kept.result.keptBoth).toEqual([
      { uri: 'workspace:/t.txt', copy: expect.stringMatching(/^workspace:\/t\.txt\.turnback-\d+$/) },
    ]);
    expect(await readFile(path.join(workspace, 't.txt'), 'utf8')).toBe('mine\n');
    expect(await readFile(path.join(workspace, kept.result.keptBoth[0].copy.slice('workspace:/'.length)), 'utf8')).toBe(
      't0\n',
    );
  });
});
