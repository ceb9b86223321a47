import { describe, expect, it } from 'vitest';
import { parseHookEvent } from './event.js';
import * as p from './test/payloads.js';

const c = { cwd: '/home/dev/project' };
const parse = (payload: unknown) => parseHookEvent(JSON.stringify(payload));

describe('parseHookEvent', () => {
  it('reads a prompt', () => {
    expect(parse(p.userPromptSubmit(c, 'Add a README'))).toEqual({
      ok: true,
      event: {
        kind: 'prompt',
        sessionId: p.SESSION_ID,
        cwd: c.cwd,
        transcriptPath: '/tmp/none.jsonl',
        agentId: null,
        prompt: 'Add a README',
      },
    });
  });

  it.each([
    ['Write', p.write(c, '/home/dev/project/a.ts', 'x'), '/home/dev/project/a.ts'],
    ['Edit', p.edit(c, 'src/b.ts', 'a', 'b'), 'src/b.ts'],
    [
      'MultiEdit',
      p.multiEdit(c, '/home/dev/project/c.ts', [{ old_string: 'a', new_string: 'b' }]),
      '/home/dev/project/c.ts',
    ],
    ['NotebookEdit', p.notebookEdit(c, '/home/dev/project/n.ipynb', 'print(1)'), '/home/dev/project/n.ipynb'],
  ])('reads the path a %s is about to change', (tool, payload, path) => {
    expect(parse(payload)).toMatchObject({
      ok: true,
      event: {
        kind: 'before-mutate',
        sessionId: p.SESSION_ID,
        cwd: c.cwd,
        tool,
        paths: [path],
        callId: payload.tool_use_id,
      },
    });
  });

  it("tells a subagent's tool call apart (agent_id): it goes to the subagent's own transcript", () => {
    const sub = { ...p.write(c, '/home/dev/project/a.ts', 'x'), agent_id: 'a1b2c3', agent_type: 'general-purpose' };
    expect(parse(sub)).toMatchObject({ ok: true, event: { kind: 'before-mutate', agentId: expect.any(String) } });
    expect(parse(p.write(c, '/home/dev/project/a.ts', 'x'))).toMatchObject({ ok: true, event: { agentId: null } });
  });

  it('reads a shell command and its end, linked by tool_use_id', () => {
    const pre = p.bash(c, 'npm test');
    expect(parse(pre)).toEqual({
      ok: true,
      event: {
        kind: 'exec',
        sessionId: p.SESSION_ID,
        cwd: c.cwd,
        transcriptPath: '/tmp/none.jsonl',
        agentId: null,
        tool: 'Bash',
        command: 'npm test',
        callId: pre.tool_use_id,
        background: false,
      },
    });
    for (const failed of [false, true]) {
      expect(parse(p.postToolUse(pre, failed))).toMatchObject({
        ok: true,
        event: { kind: 'exec-end', tool: 'Bash', callId: pre.tool_use_id },
      });
    }
  });

  it('tells a background command apart: its PostToolUse comes while it runs', () => {
    expect(parse(p.preToolUse(c, 'Bash', { command: 'npm run dev', run_in_background: true }))).toMatchObject({
      ok: true,
      event: { kind: 'exec', background: true },
    });
  });

  it('reads an MCP tool as a command, its input as the command', () => {
    const pre = p.preToolUse(c, 'mcp__db__query', { sql: 'delete from users' });
    expect(parse(pre)).toMatchObject({
      ok: true,
      event: { kind: 'exec', tool: 'mcp__db__query', command: '{"sql":"delete from users"}' },
    });
    expect(parse(p.postToolUse(pre))).toMatchObject({ ok: true, event: { kind: 'exec-end', tool: 'mcp__db__query' } });
    const huge = parse(p.preToolUse(c, 'mcp__docs__put', { text: '😀'.repeat(5000) }));
    expect(huge.ok && huge.event.kind === 'exec' && Array.from(huge.event.command).length).toBe(2001);
  });

  it('reads a stop with its transcript', () => {
    expect(parse(p.stop({ ...c, transcriptPath: '/t.jsonl' }))).toMatchObject({
      ok: true,
      event: { kind: 'turn-end', event: 'Stop', transcriptPath: '/t.jsonl', lastReply: null },
    });
  });

  it('reads the reply a stop carries itself', () => {
    expect(parse({ ...p.stop(c), last_assistant_message: 'All done.' })).toMatchObject({
      ok: true,
      event: { kind: 'turn-end', lastReply: 'All done.' },
    });
  });

  it('reads StopFailure and SessionEnd as ends of the turn', () => {
    expect(parse(p.stopFailure(c))).toMatchObject({
      ok: true,
      event: { kind: 'turn-end', event: 'StopFailure', lastReply: 'API Error: 400 boom' },
    });
    expect(parse(p.sessionEnd(c))).toMatchObject({
      ok: true,
      event: { kind: 'turn-end', event: 'SessionEnd', lastReply: null },
    });
  });

  it('ignores events and tools it does not forward', () => {
    expect(parse({ ...p.stop(c), hook_event_name: 'SessionStart', source: 'startup' })).toMatchObject({
      ok: false,
      ignored: true,
    });
    expect(parse(p.preToolUse(c, 'Read', { file_path: '/x' }))).toMatchObject({ ok: false, ignored: true });
    expect(parse(p.postToolUse(p.write(c, '/x', 'y')))).toMatchObject({ ok: false, ignored: true });
    for (const newer of ['PostToolBatch', 'CwdChanged', 'FileChanged', 'PermissionDenied']) {
      expect(parse({ ...p.stop(c), hook_event_name: newer })).toMatchObject({ ok: false, ignored: true });
    }
  });

  it.each([
    ['not JSON', '{"hook_event_name": '],
    ['an array', '[]'],
    ['no event name', JSON.stringify({ session_id: 'a', cwd: '/' })],
    ['a bad session id', JSON.stringify(p.userPromptSubmit({ ...c, sessionId: 'a b/c' }, 'hi'))],
    ['an over-long session id', JSON.stringify(p.userPromptSubmit({ ...c, sessionId: 'a'.repeat(201) }, 'hi'))],
    ['no cwd', JSON.stringify({ ...p.userPromptSubmit(c, 'hi'), cwd: undefined })],
    ['a prompt that is not text', JSON.stringify({ ...p.userPromptSubmit(c, 'hi'), prompt: 3 })],
    ['a Write without a path', JSON.stringify(p.preToolUse(c, 'Write', { content: 'x' }))],
    ['a Bash without a command', JSON.stringify(p.preToolUse(c, 'Bash', {}))],
  ])('calls %s malformed', (_label, text) => {
    expect(parseHookEvent(text)).toMatchObject({ ok: false, ignored: false });
  });
});
