// The facts the Gemini CLI mapping relies on, asserted on the hook events and the session file a
// real Gemini CLI 0.61.0 wrote (test/fixtures/, from a session of write_file, replace, two
// run_shell_command calls, one of them exiting 1, and a replace that failed).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { turnOfLinesWith } from './test/lines.js';
import { callIdOf, parseGeminiEvent } from './event.js';
import { geminiTurnCollector } from './transcript.js';

const fixture = (name: string) =>
  readFileSync(new URL(`./test/fixtures/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
const events = fixture('hook-events-0.61.0.jsonl').map((line) => JSON.parse(line) as Record<string, any>);
const named = (name: string) => events.filter((event) => event.hook_event_name === name);

describe('Gemini CLI 0.61.0 hook events', () => {
  it('carry session_id, cwd and transcript_path on every event, and no call id', () => {
    for (const event of events) {
      expect(event.session_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(event.cwd).toMatch(/^\//);
      expect(event.transcript_path).toMatch(/\/\.gemini\/tmp\/[^/]+\/chats\/session-[^/]+\.jsonl$/);
    }
    for (const event of [...named('BeforeTool'), ...named('AfterTool')]) {
      expect(Object.keys(event).filter((key) => /id$/.test(key))).toEqual(['session_id']);
    }
  });

  it('map BeforeAgent to the prompt, file tools to before-mutate, the shell to exec, AfterAgent and SessionEnd to the turn end', () => {
    const kinds = events.map((event) => {
      const parsed = parseGeminiEvent(event);
      return parsed.ok
        ? `${event.hook_event_name}:${parsed.event.kind}`
        : `${event.hook_event_name}:${parsed.ignored ? 'ignored' : 'malformed'}`;
    });
    expect(kinds).toEqual([
      'SessionStart:ignored',
      'BeforeAgent:prompt',
      'BeforeTool:before-mutate',
      'AfterTool:ignored',
      'BeforeTool:before-mutate',
      'AfterTool:ignored',
      'BeforeTool:exec',
      'AfterTool:exec-end',
      'BeforeTool:exec',
      'AfterTool:exec-end',
      'BeforeTool:before-mutate',
      'AfterTool:ignored',
      'AfterAgent:turn-end',
      'SessionEnd:turn-end',
      'SessionStart:ignored',
      'BeforeAgent:prompt',
      'AfterAgent:turn-end',
      'SessionEnd:turn-end',
    ]);
    const prompt = parseGeminiEvent(named('BeforeAgent')[0]);
    expect(prompt.ok && prompt.event.kind === 'prompt' && prompt.event.prompt).toBe('Turn 1: do things');
    const end = parseGeminiEvent(named('AfterAgent')[0]);
    expect(end.ok && end.event.kind === 'turn-end' && end.event.lastReply).toBe('Turn 1 done.');
  });

  it("pair a tool's BeforeTool and AfterTool by its tool and input", () => {
    const [before, after] = [named('BeforeTool'), named('AfterTool')].map((list) =>
      list.filter((e) => e.tool_name === 'run_shell_command'),
    );
    for (let i = 0; i < before.length; i++) {
      const start = parseGeminiEvent(before[i]);
      const end = parseGeminiEvent(after[i]);
      expect(start.ok && end.ok).toBe(true);
      if (start.ok && end.ok && start.event.kind === 'exec' && end.event.kind === 'exec-end')
        expect(end.event.callId).toBe(start.event.callId);
    }
    expect(callIdOf('t', { a: 1, b: { c: 2, d: 3 } })).toBe(callIdOf('t', { b: { d: 3, c: 2 }, a: 1 }));
    expect(callIdOf('t', { a: 1 })).not.toBe(callIdOf('u', { a: 1 }));
  });

  it('report a failed tool with tool_response.error, and a shell exit code as no error', () => {
    const failed = named('AfterTool').find((e) => e.tool_input.old_string === 'nothere')!;
    expect(failed.tool_response.error).toMatchObject({ type: 'edit_no_occurrence_found' });
    const exit1 = named('AfterTool').find((e) => e.tool_input.command === 'false')!;
    expect(exit1.tool_response.error).toBeUndefined();
    expect(exit1.tool_response.llmContent).toContain('Exit Code: 1');
  });

  it('scan MCP and unknown tools, ignore the read-only ones, refuse what is no event', () => {
    const base = { session_id: 's1', cwd: '/w', transcript_path: null, hook_event_name: 'BeforeTool' };
    const mcp = parseGeminiEvent({ ...base, tool_name: 'mcp_files_write', tool_input: { path: 'a' } });
    expect(mcp.ok && mcp.event.kind).toBe('exec');
    expect(parseGeminiEvent({ ...base, tool_name: 'read_file', tool_input: { file_path: 'a' } })).toMatchObject({
      ok: false,
      ignored: true,
    });
    expect(parseGeminiEvent({ ...base, tool_name: 'write_file', tool_input: {} })).toMatchObject({
      ok: false,
      ignored: false,
    });
    expect(parseGeminiEvent({ ...base, session_id: 'bad id' })).toMatchObject({ ok: false, ignored: false });
    expect(parseGeminiEvent('x')).toMatchObject({ ok: false, ignored: false });
    const background = parseGeminiEvent({
      ...base,
      tool_name: 'run_shell_command',
      tool_input: { command: 'sleep 9', is_background: true },
    });
    expect(background.ok && background.event.kind === 'exec' && background.event.background).toBe(true);
  });
});

describe('a Gemini CLI 0.61.0 session file', () => {
  const lines = fixture('session-0.61.0.jsonl');

  it("holds each turn's replies and tool calls after its prompt, under the hooks' call ids", () => {
    const items = turnOfLinesWith(geminiTurnCollector('Turn 1: do things'), lines);
    expect(items.filter((item) => item.kind === 'tool').map((item) => item.kind === 'tool' && item.name)).toEqual([
      'write_file',
      'replace',
      'run_shell_command',
      'run_shell_command',
      'replace',
    ]);
    expect(items.filter((item) => item.kind === 'text').map((item) => item.kind === 'text' && item.text)).toEqual([
      'Turn 1 done.',
    ]);
    const shell = named('BeforeTool').find((e) => e.tool_name === 'run_shell_command')!;
    expect(items.some((item) => item.kind === 'tool' && item.id === callIdOf(shell.tool_name, shell.tool_input))).toBe(
      true,
    );
    const second = turnOfLinesWith(geminiTurnCollector('Turn 2: more'), lines);
    expect(second).toEqual([{ kind: 'text', messageId: expect.any(String), text: 'Turn 2 done.' }]);
    expect(turnOfLinesWith(geminiTurnCollector('never asked'), lines)).toEqual([]);
  });
});

describe('the chat of a Gemini turn', () => {
  it("takes AfterAgent's reply as the texts already read when it ends with the last of them, else adds it", async () => {
    const { geminiChat } = await import('./host.js');
    const items = [
      { kind: 'text' as const, messageId: 'a', text: 'First.' },
      { kind: 'tool' as const, id: null, name: 'write_file', input: { file_path: '/w/src/a.ts' } },
      { kind: 'text' as const, messageId: 'b', text: 'Done.' },
    ];
    expect(geminiChat(items, 'First.\nDone.', '/w')).toEqual([
      { role: 'assistant', content: 'First.' },
      { role: 'tool', content: 'write_file(src/a.ts)' },
      { role: 'assistant', content: 'Done.' },
    ]);
    expect(geminiChat([], 'Only the event had it.', '/w')).toEqual([
      { role: 'assistant', content: 'Only the event had it.' },
    ]);
  });
});
