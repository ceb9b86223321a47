// Copilot CLI's payloads (as recorded from 1.0.102), parsed: what each event maps to in the core.
import { describe, expect, it } from 'vitest';
import { callIdOf, eventNameOf, parseCopilotEvent } from './event.js';
import * as p from './test/payloads.js';

const c = { cwd: '/home/dev/project' };
const base = { sessionId: p.SESSION_ID, cwd: c.cwd, transcriptPath: null, agentId: null };

describe('parseCopilotEvent', () => {
  it('tells each camelCase event by its own fields (Copilot names none)', () => {
    expect(eventNameOf(p.sessionStart(c, 'hi'))).toBe('sessionStart');
    expect(eventNameOf(p.userPromptSubmitted(c, 'hi'))).toBe('userPromptSubmitted');
    expect(eventNameOf(p.preToolUse(c, 'bash', { command: 'ls' }))).toBe('preToolUse');
    expect(eventNameOf(p.postToolUse(c, 'bash', { command: 'ls' }))).toBe('postToolUse');
    expect(eventNameOf(p.postToolUseFailure(c, 'edit', {}, 'No match found'))).toBe('postToolUseFailure');
    expect(eventNameOf(p.agentStop(c))).toBe('agentStop');
    expect(eventNameOf(p.sessionEnd(c))).toBe('sessionEnd');
    expect(eventNameOf(p.errorOccurred(c, false))).toBe('errorOccurred');
    expect(eventNameOf({ sessionId: 'x', cwd: '/' })).toBeNull();
  });

  it('takes the prompt from userPromptSubmitted; sessionStart has no use', () => {
    expect(parseCopilotEvent(p.userPromptSubmitted(c, 'Fix the bug'))).toEqual({
      ok: true,
      event: { ...base, kind: 'prompt', prompt: 'Fix the bug' },
    });
    expect(parseCopilotEvent(p.sessionStart(c, 'Fix the bug'))).toMatchObject({ ok: false, ignored: true });
  });

  it('records create and edit by toolArgs.path before they run; their post events have no use', () => {
    const args = { path: '/home/dev/project/src/a.ts', old_str: 'x', new_str: 'y' };
    expect(parseCopilotEvent(p.preToolUse(c, 'edit', args))).toEqual({
      ok: true,
      event: { ...base, kind: 'before-mutate', tool: 'edit', paths: [args.path], callId: callIdOf('edit', args) },
    });
    expect(parseCopilotEvent(p.preToolUse(c, 'create', { path: 'new.txt', file_text: 'x' }))).toMatchObject({
      ok: true,
      event: { kind: 'before-mutate', paths: ['new.txt'] },
    });
    expect(parseCopilotEvent(p.postToolUse(c, 'edit', args))).toMatchObject({ ok: false, ignored: true });
    expect(parseCopilotEvent(p.postToolUseFailure(c, 'edit', args, 'No match found'))).toMatchObject({
      ok: false,
      ignored: true,
    });
    expect(parseCopilotEvent(p.preToolUse(c, 'edit', { old_str: 'x' }))).toMatchObject({ ok: false, ignored: false });
  });

  it('scans around bash, MCP and unknown tools, linking pre to post (or failure) by a hash of the call', () => {
    const shell = { command: 'rm scratch.txt && mv a b', description: 'Tidy' };
    const pre = parseCopilotEvent(p.preToolUse(c, 'bash', shell));
    expect(pre).toEqual({
      ok: true,
      event: {
        ...base,
        kind: 'exec',
        tool: 'bash',
        command: shell.command,
        callId: callIdOf('bash', shell),
        background: false,
      },
    });
    expect(parseCopilotEvent(p.postToolUse(c, 'bash', shell))).toEqual({
      ok: true,
      event: { ...base, kind: 'exec-end', tool: 'bash', callId: callIdOf('bash', shell) },
    });
    const mcp = { path: 'out.txt', text: 'x' };
    expect(parseCopilotEvent(p.preToolUse(c, 'files-files_write', mcp))).toMatchObject({
      ok: true,
      event: { kind: 'exec', tool: 'files-files_write', command: `files-files_write ${JSON.stringify(mcp)}` },
    });
    expect(parseCopilotEvent(p.postToolUseFailure(c, 'nosuch', { a: 1 }, "Tool 'nosuch' does not exist."))).toEqual({
      ok: true,
      event: { ...base, kind: 'exec-end', tool: 'nosuch', callId: callIdOf('nosuch', { a: 1 }) },
    });
    expect(callIdOf('bash', shell)).not.toBe(callIdOf('bash', { ...shell, command: 'ls' }));
  });

  it('reads toolArgs given as a JSON string; an async shell runs on in the background; task nests', () => {
    const args = { command: 'npm run dev', mode: 'async' };
    expect(parseCopilotEvent(p.preToolUse(c, 'bash', JSON.stringify(args)))).toMatchObject({
      ok: true,
      event: { kind: 'exec', command: 'npm run dev', callId: callIdOf('bash', args), background: true },
    });
    expect(parseCopilotEvent(p.preToolUse(c, 'task', { prompt: 'x' }))).toMatchObject({
      ok: true,
      event: { kind: 'exec', tool: 'task', nests: true },
    });
  });

  it('leaves reading tools alone', () => {
    for (const tool of ['view', 'grep', 'glob', 'read_bash', 'report_intent'])
      expect(parseCopilotEvent(p.preToolUse(c, tool, { path: '/x' })), tool).toMatchObject({
        ok: false,
        ignored: true,
      });
  });

  it('ends the turn at agentStop (its transcriptPath kept), sessionEnd and an unrecoverable error', () => {
    expect(parseCopilotEvent(p.agentStop({ ...c, home: '/home/dev' }))).toEqual({
      ok: true,
      event: {
        ...base,
        transcriptPath: `/home/dev/.copilot/session-state/${p.SESSION_ID}/events.jsonl`,
        kind: 'turn-end',
        event: 'agentStop',
        lastReply: null,
      },
    });
    expect(parseCopilotEvent(p.sessionEnd(c))).toMatchObject({
      ok: true,
      event: { kind: 'turn-end', event: 'sessionEnd', sessionEnded: true },
    });
    expect(parseCopilotEvent(p.errorOccurred(c, false))).toMatchObject({ ok: true, event: { kind: 'turn-end' } });
    expect(parseCopilotEvent(p.errorOccurred(c, true))).toMatchObject({ ok: false, ignored: true });
  });

  it('refuses what is not a Copilot event', () => {
    expect(parseCopilotEvent([])).toMatchObject({ ok: false, ignored: false });
    expect(parseCopilotEvent({ ...p.userPromptSubmitted(c, 'x'), sessionId: '' })).toMatchObject({ ignored: false });
    expect(parseCopilotEvent({ sessionId: 'x', timestamp: 1, prompt: 'x' })).toMatchObject({ ignored: false });
  });
});
