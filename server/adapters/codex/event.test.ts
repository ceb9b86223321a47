import { describe, expect, it } from 'vitest';
import { parseCodexEvent } from './event.js';
import { recordedEvents, type RawEvent } from './test/fixtures.js';

const events = recordedEvents();
const named = (name: string, tool?: string) =>
  events.filter((e) => e.hook_event_name === name && (tool === undefined || e.tool_name === tool));
const parsed = (raw: RawEvent) => parseCodexEvent(raw);

describe('Codex 0.169.0 hook events, as recorded', () => {
  it('all carry session_id, cwd and the rollout as transcript_path', () => {
    for (const e of events) {
      expect(typeof e.session_id).toBe('string');
      expect(e.cwd).toBe('/w');
      expect(e.transcript_path).toMatch(/^\/home\/u\/\.codex\/sessions\/\d{4}\/\d\d\/\d\d\/rollout-.*\.jsonl$/);
    }
  });

  it('report shell tools as Bash and edits as apply_patch with the patch in tool_input.command', () => {
    expect(named('PreToolUse', 'Bash')[0].tool_input).toEqual({
      command: "sed -i 's/alpha/ALPHA/' a.txt && rm scratch.txt && mv old.md new.md",
    });
    expect(named('PreToolUse', 'apply_patch')[0].tool_input.command).toMatch(
      /^\*\*\* Begin Patch\n\*\*\* Add File: src\/new.ts\n/,
    );
    expect(named('PreToolUse', 'mcp__files__write')).toHaveLength(1);
  });

  it('have no failure events: a patch that does not apply gets no PostToolUse, a refused turn only SessionEnd', () => {
    const names = new Set(events.map((e) => e.hook_event_name));
    expect(names.has('PostToolUseFailure') || names.has('StopFailure')).toBe(false);
    expect(named('PreToolUse', 'apply_patch')).toHaveLength(2);
    expect(named('PostToolUse', 'apply_patch')).toHaveLength(1);
    expect(events.slice(-2).map((e) => e.hook_event_name)).toEqual(['UserPromptSubmit', 'SessionEnd']);
  });

  it("send a sub-agent's events with the parent's session_id and the sub-agent's agent_id and rollout", () => {
    const start = named('SubagentStart')[0];
    const own = events.filter((e) => e.agent_id === start.agent_id);
    expect(own.map((e) => e.hook_event_name)).toEqual([
      'SubagentStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'SubagentStop',
    ]);
    expect(new Set(own.map((e) => e.session_id))).toEqual(new Set([events[0].session_id]));
    expect(own[2].transcript_path).not.toBe(events[0].transcript_path);
  });
});

describe('parseCodexEvent', () => {
  it('maps a prompt to a turn begun and Stop to its end with the reply', () => {
    expect(parsed(named('UserPromptSubmit')[0])).toMatchObject({
      ok: true,
      event: { kind: 'prompt', prompt: 'Turn 1: do it', agentId: null, cwd: '/w' },
    });
    expect(parsed(named('Stop')[0])).toMatchObject({
      ok: true,
      event: { kind: 'turn-end', event: 'Stop', lastReply: 'Turn 1 done.' },
    });
    expect(parsed(named('SessionEnd')[0])).toMatchObject({
      ok: true,
      event: { kind: 'turn-end', event: 'SessionEnd', lastReply: null, sessionEnded: true },
    });
    expect(parsed(named('Stop')[0])).not.toHaveProperty('event.sessionEnded');
  });

  it("records an apply_patch's files before it runs, and needs nothing after", () => {
    const pre = named('PreToolUse', 'apply_patch')[0];
    expect(parsed(pre)).toMatchObject({
      ok: true,
      event: { kind: 'before-mutate', tool: 'apply_patch', paths: ['src/new.ts', 'a.txt'], callId: pre.tool_use_id },
    });
    expect(parsed(named('PostToolUse', 'apply_patch')[0])).toMatchObject({ ok: false, ignored: true });
  });

  it('scans around a patch it cannot read', () => {
    const odd = { ...named('PreToolUse', 'apply_patch')[0], tool_input: { command: 'not a patch' } };
    expect(parsed(odd)).toMatchObject({
      ok: true,
      event: { kind: 'exec', tool: 'apply_patch', command: 'not a patch' },
    });
    expect(parsed({ ...odd, hook_event_name: 'PostToolUse' })).toMatchObject({
      ok: true,
      event: { kind: 'exec-end', callId: (odd as { tool_use_id?: string }).tool_use_id },
    });
  });

  it('cuts a long tool input by code points, never inside a character', () => {
    const big = { ...named('PreToolUse', 'mcp__files__write')[0], tool_input: { text: '😀'.repeat(5000) } };
    const result = parsed(big);
    expect(result).toMatchObject({ ok: true, event: { kind: 'exec' } });
    const command = (result as { event: { command: string } }).event.command;
    expect(Array.from(command)).toHaveLength(4001);
    expect(command.endsWith('…')).toBe(true);
    expect(Buffer.from(command, 'utf8').toString('utf8')).toBe(command); // no lone surrogate
  });

  it('scans around shell and MCP tools, linked by tool_use_id', () => {
    const pre = named('PreToolUse', 'Bash')[0];
    expect(parsed(pre)).toMatchObject({
      ok: true,
      event: { kind: 'exec', tool: 'Bash', command: pre.tool_input.command, callId: pre.tool_use_id },
    });
    expect(parsed(named('PostToolUse', 'Bash')[0])).toMatchObject({
      ok: true,
      event: { kind: 'exec-end', callId: pre.tool_use_id },
    });
    expect(parsed(named('PreToolUse', 'mcp__files__write')[0])).toMatchObject({
      ok: true,
      event: {
        kind: 'exec',
        tool: 'mcp__files__write',
        command: 'mcp__files__write {"path":"mcp/out.txt","text":"by mcp\\n"}',
      },
    });
  });

  it("keeps a sub-agent's work in its parent's turn: its prompt begins none, its calls carry its id", () => {
    const start = named('SubagentStart')[0];
    expect(parsed(start)).toMatchObject({ ok: true, event: { kind: 'subagent-start', agentId: start.agent_id } });
    expect(parsed(named('UserPromptSubmit').find((e) => e.agent_id)!)).toMatchObject({ ok: false, ignored: true });
    expect(parsed(named('PreToolUse', 'Bash').find((e) => e.agent_id)!)).toMatchObject({
      ok: true,
      event: { kind: 'exec', agentId: start.agent_id },
    });
    expect(parsed(named('SubagentStop')[0])).toMatchObject({
      ok: true,
      event: { kind: 'subagent-end', agentId: start.agent_id },
    });
  });

  it('does not scan the sub-agent tools or read-only ones', () => {
    for (const tool of ['spawn_agent', 'multi_agent_v1wait_agent'])
      expect(parsed(named('PreToolUse', tool)[0])).toMatchObject({ ok: false, ignored: true });
    expect(parsed({ ...named('PreToolUse', 'Bash')[0], tool_name: 'view_image' })).toMatchObject({
      ok: false,
      ignored: true,
    });
    expect(parsed({ ...named('PreToolUse', 'Bash')[0], tool_name: 'write_stdin' })).toMatchObject({
      ok: true,
      event: { kind: 'exec' },
    });
  });

  it('ignores events it has no use for, and refuses what is no Codex event', () => {
    expect(parsed(named('SessionStart')[0])).toMatchObject({ ok: false, ignored: true });
    expect(parsed(null as never)).toMatchObject({ ok: false, ignored: false });
    expect(parsed({ hook_event_name: 'Stop', cwd: '/w' })).toMatchObject({
      ok: false,
      ignored: false,
      reason: 'no session_id',
    });
    expect(parsed({ ...named('PreToolUse', 'Bash')[0], tool_name: undefined })).toMatchObject({
      ok: false,
      ignored: false,
    });
  });
});
