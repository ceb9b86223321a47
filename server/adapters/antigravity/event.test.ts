// Antigravity's documented (and Entire-captured) payloads, parsed: what each event maps to in the core.
import { describe, expect, it } from 'vitest';
import { ANTIGRAVITY_PROMPT, argsOf, callIdOf, eventNameOf, parseAntigravityEvent } from './event.js';
import * as p from './test/payloads.js';

const c = { root: '/home/dev/project' };
const base = {
  sessionId: p.CONVERSATION_ID,
  cwd: c.root,
  transcriptPath: p.stop(c).transcriptPath,
  agentId: null,
};

describe('parseAntigravityEvent', () => {
  it('tells each registered event by its own fields (agy names none)', () => {
    expect(eventNameOf(p.preInvocation(c, 0))).toBe('PreInvocation');
    expect(eventNameOf(p.preToolUse(c, 'run_command', {}, 3))).toBe('PreToolUse');
    expect(eventNameOf(p.postToolUse(c, 3))).toBe('PostToolUse');
    expect(eventNameOf(p.postToolUse(c, 3, 'exit status 1'))).toBe('PostToolUse');
    expect(eventNameOf(p.stop(c))).toBe('Stop');
    expect(eventNameOf({ conversationId: 'x' })).toBeNull();
  });

  it("begins a turn at a prompt's first model call only, titled as agy gives no prompt text", () => {
    expect(parseAntigravityEvent(p.preInvocation(c, 0))).toEqual({
      ok: true,
      event: { ...base, kind: 'prompt', prompt: ANTIGRAVITY_PROMPT },
    });
    expect(parseAntigravityEvent(p.preInvocation(c, 1))).toMatchObject({ ok: false, ignored: true });
  });

  it('records the file tools by TargetFile before they run, double-encoded or not', () => {
    expect(
      parseAntigravityEvent(p.preToolUse(c, 'write_to_file', { TargetFile: 'src/a.ts', CodeContent: 'x' }, 4)),
    ).toEqual({
      ok: true,
      event: { ...base, kind: 'before-mutate', tool: 'write_to_file', paths: ['src/a.ts'], callId: callIdOf(4) },
    });
    expect(
      parseAntigravityEvent(p.preToolUse(c, 'replace_file_content', { TargetFile: '"/home/dev/project/b.ts"' }, 5)),
    ).toMatchObject({ ok: true, event: { kind: 'before-mutate', paths: ['/home/dev/project/b.ts'] } });
    expect(argsOf(JSON.stringify({ TargetFile: '"a.txt"', Overwrite: 'true' }))).toEqual({
      TargetFile: 'a.txt',
      Overwrite: 'true',
    });
    expect(parseAntigravityEvent(p.preToolUse(c, 'multi_replace_file_content', {}, 6))).toMatchObject({
      ok: false,
      ignored: false,
    });
  });

  it('scans around run_command, MCP and unknown tools, ended by the PostToolUse of the same step (a failure too)', () => {
    expect(
      parseAntigravityEvent(p.preToolUse(c, 'run_command', { CommandLine: 'rm a && mv b c', Cwd: c.root }, 7)),
    ).toEqual({
      ok: true,
      event: {
        ...base,
        kind: 'exec',
        tool: 'run_command',
        command: 'rm a && mv b c',
        callId: callIdOf(7),
        background: false,
      },
    });
    expect(parseAntigravityEvent(p.preToolUse(c, 'mcp_files_write', { path: 'x' }, 8))).toMatchObject({
      ok: true,
      event: { kind: 'exec', command: 'mcp_files_write {"path":"x"}' },
    });
    expect(parseAntigravityEvent(p.postToolUse(c, 7, 'exit status 1'))).toEqual({
      ok: true,
      event: { ...base, kind: 'exec-end', tool: 'agy', callId: callIdOf(7) },
    });
    expect(parseAntigravityEvent(p.preToolUse(c, 'view_file', { AbsolutePath: '/x' }, 9))).toMatchObject({
      ok: false,
      ignored: true,
    });
  });

  it('ends the turn at a Stop that is fully idle only', () => {
    expect(parseAntigravityEvent(p.stop(c))).toEqual({
      ok: true,
      event: { ...base, kind: 'turn-end', event: 'Stop', lastReply: null },
    });
    expect(parseAntigravityEvent(p.stop(c, false))).toMatchObject({ ok: false, ignored: true });
  });

  it('refuses a payload without a conversation or an absolute workspace (agy -p in its scratch folder)', () => {
    expect(parseAntigravityEvent({ ...p.stop(c), conversationId: '' })).toMatchObject({ ok: false, ignored: false });
    expect(parseAntigravityEvent({ ...p.stop(c), workspacePaths: [] })).toMatchObject({ ok: false, ignored: false });
    expect(parseAntigravityEvent({ ...p.stop(c), workspacePaths: ['rel'] })).toMatchObject({ ignored: false });
  });
});
