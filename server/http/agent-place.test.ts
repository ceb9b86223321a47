import { describe, expect, it } from 'vitest';
import { agentPlaceOf } from './agent-place.js';

const none = new URLSearchParams();

describe('where an agent request runs', () => {
  it("reads a hook event's session and cwd, keyed by its host", () => {
    expect(agentPlaceOf('/api/agent/hook/:host', { host: 'codex' }, { session_id: 's1', cwd: '/w/p' }, none)).toEqual({
      sessionKey: 'codex:s1',
      cwd: '/w/p',
    });
    expect(agentPlaceOf('/api/agent/hook/claude-code', {}, { session_id: 's1', cwd: 'relative' }, none)).toEqual({
      sessionKey: 'claude-code:s1',
      cwd: undefined,
    });
  });

  it("asks the host's own reader first (a host that names its folder otherwise)", () => {
    const reader = (host: string, raw: unknown) =>
      host === 'cursor'
        ? {
            sessionId: (raw as { conversation_id: string }).conversation_id,
            cwd: (raw as { workspace_roots: string[] }).workspace_roots[0],
          }
        : null;
    expect(
      agentPlaceOf(
        '/api/agent/hook/:host',
        { host: 'cursor' },
        { conversation_id: 'c9', workspace_roots: ['/w/q'] },
        none,
        reader,
      ),
    ).toEqual({ sessionKey: 'cursor:c9', cwd: '/w/q' });
    expect(
      agentPlaceOf('/api/agent/hook/:host', { host: 'gemini' }, { session_id: 'g1', cwd: '/w/r' }, none, reader),
    ).toEqual({ sessionKey: 'gemini:g1', cwd: '/w/r' });
  });

  it("reads the agent API's sessionId from the body or the query, and an absolute cwd", () => {
    expect(agentPlaceOf('/api/agent/input', {}, { sessionId: 'a', cwd: '/w/p' }, none)).toEqual({
      sessionKey: 'agent:a',
      cwd: '/w/p',
    });
    expect(agentPlaceOf('/api/agent/fs/read', {}, {}, new URLSearchParams('sessionId=b'))).toEqual({
      sessionKey: 'agent:b',
      cwd: undefined,
      registers: false,
    });
    expect(agentPlaceOf('/api/agent/input', {}, [], none)).toEqual({ sessionKey: undefined, cwd: undefined });
  });
});
