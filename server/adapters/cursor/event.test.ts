// Cursor's documented payloads, parsed: what each event maps to in the core.
import { describe, expect, it } from 'vitest';
import { cursorDeliveryKey, isCursorPayload, parseCursorEvent } from './event.js';
import * as p from './test/payloads.js';

const c = { root: '/home/dev/project' };
const base = { sessionId: p.CONVERSATION_ID, cwd: c.root, transcriptPath: null, agentId: null };

describe('parseCursorEvent', () => {
  it('takes the session from conversation_id and the folder from workspace_roots[0] (no cwd)', () => {
    expect(parseCursorEvent(p.beforeSubmitPrompt(c, 'Fix the bug'))).toEqual({
      ok: true,
      event: { ...base, kind: 'prompt', prompt: 'Fix the bug' },
    });
  });

  it("maps a shell command's before and after to exec and exec-end, linked without a call id", () => {
    const before = parseCursorEvent(p.beforeShellExecution(c, 'rm -rf build'));
    const after = parseCursorEvent(p.afterShellExecution(c, 'rm -rf build'));
    expect(before).toMatchObject({ ok: true, event: { kind: 'exec', tool: 'Shell', command: 'rm -rf build' } });
    expect(after).toMatchObject({ ok: true, event: { kind: 'exec-end', tool: 'Shell' } });
    const id = (parsed: ReturnType<typeof parseCursorEvent>) =>
      parsed.ok && 'callId' in parsed.event ? parsed.event.callId : undefined;
    expect(id(before)).toBe(id(after));
    expect(id(parseCursorEvent(p.beforeShellExecution({ ...c, generationId: 'gen-2' }, 'rm -rf build')))).not.toBe(
      id(before),
    );
  });

  it('maps an MCP call (tool_input as a JSON string or an object) to exec and exec-end', () => {
    const input = { query: 'delete from users' };
    expect(parseCursorEvent(p.beforeMCPExecution(c, 'database_query', input))).toMatchObject({
      ok: true,
      event: { kind: 'exec', tool: 'MCP:database_query', command: JSON.stringify(input) },
    });
    expect(parseCursorEvent({ ...p.beforeMCPExecution(c, 'db', input), tool_input: input })).toMatchObject({
      ok: true,
      event: { command: JSON.stringify(input) },
    });
    expect(parseCursorEvent(p.afterMCPExecution(c, 'database_query', input))).toMatchObject({
      ok: true,
      event: { kind: 'exec-end' },
    });
  });

  it('maps preToolUse of a file tool to before-mutate, of an unknown tool to exec; Shell, MCP and reading tools have no use', () => {
    expect(parseCursorEvent(p.preToolUse(c, 'Write', { file_path: 'src/a.ts', content: 'x' }))).toMatchObject({
      ok: true,
      event: { kind: 'before-mutate', tool: 'Write', paths: ['src/a.ts'] },
    });
    expect(parseCursorEvent(p.preToolUse(c, 'Delete', { path: '/home/dev/project/old.ts' }))).toMatchObject({
      ok: true,
      event: { paths: ['/home/dev/project/old.ts'] },
    });
    const unknown = p.preToolUse(c, 'RefactorAll', { pattern: 'x' });
    expect(parseCursorEvent(unknown)).toMatchObject({
      ok: true,
      event: { kind: 'exec', tool: 'RefactorAll', callId: unknown.tool_use_id },
    });
    expect(parseCursorEvent(p.postToolUse(unknown, true))).toMatchObject({
      ok: true,
      event: { kind: 'exec-end', callId: unknown.tool_use_id },
    });
    for (const tool of ['Shell', 'MCP:db', 'Read', 'Grep']) {
      expect(parseCursorEvent(p.preToolUse(c, tool, { command: 'ls' })), tool).toMatchObject({
        ok: false,
        ignored: true,
      });
    }
    expect(parseCursorEvent(p.postToolUse(p.preToolUse(c, 'Write', { file_path: 'a' })))).toMatchObject({
      ok: false,
      ignored: true,
    });
  });

  it("takes an edit seen only afterwards (afterFileEdit) from the turn's scan, the reply from afterAgentResponse, the end from stop", () => {
    expect(
      parseCursorEvent(p.afterFileEdit(c, '/home/dev/project/a.ts', [{ old_string: '1', new_string: '2' }])),
    ).toMatchObject({ ok: false, ignored: true });
    expect(parseCursorEvent(p.afterAgentResponse(c, 'Done.'))).toEqual({
      ok: true,
      event: { ...base, kind: 'reply', text: 'Done.' },
    });
    expect(parseCursorEvent(p.stop(c, 'aborted'))).toEqual({
      ok: true,
      event: { ...base, kind: 'turn-end', event: 'stop', lastReply: null },
    });
  });

  it.each([
    ['no conversation_id', { hook_event_name: 'stop', workspace_roots: ['/x'] }],
    ['a bad conversation_id', { ...p.stop(c), conversation_id: 'a b' }],
    ['no workspace root', { ...p.stop(c), workspace_roots: [] }],
    ['a relative workspace root', { ...p.stop(c), workspace_roots: ['project'] }],
    ['a prompt without text', { ...p.beforeSubmitPrompt(c, 'x'), prompt: 3 }],
    ['a file tool without a path', p.preToolUse(c, 'Write', { content: 'x' })],
  ])('calls %s malformed', (_, payload) => {
    expect(parseCursorEvent(payload)).toMatchObject({ ok: false, ignored: false });
  });

  it("tells its payloads from Claude Code's, and keys one event the same whichever hook delivered it", () => {
    expect(isCursorPayload(p.stop(c))).toBe(true);
    expect(isCursorPayload({ session_id: 's', cwd: '/x', hook_event_name: 'Stop' })).toBe(false);
    const prompt = p.beforeSubmitPrompt(c, 'hi');
    expect(cursorDeliveryKey({ ...prompt, extra: 1 })).toBe(cursorDeliveryKey(prompt));
    expect(cursorDeliveryKey(p.beforeSubmitPrompt(c, 'other'))).not.toBe(cursorDeliveryKey(prompt));
  });
});
