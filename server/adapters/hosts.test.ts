import { describe, expect, it } from 'vitest';
import * as claude from './claude-code/test/payloads.js';
import * as cursor from './cursor/test/payloads.js';
import { HOSTS, placeOfHookEvent } from './hosts.js';

describe('the hosts', () => {
  it('have distinct names, each with a platform and a notice', () => {
    expect(new Set(HOSTS.map((host) => host.name)).size).toBe(HOSTS.length);
    for (const host of HOSTS) {
      const notice = host.notice('turnback is not recording');
      expect(notice.stdout ?? notice.stderr, host.name).toContain('turnback is not recording');
    }
  });

  it("place a raw event: its session and folder as its host reads them, Cursor's through Claude Code's route too", () => {
    expect(placeOfHookEvent('claude-code', claude.userPromptSubmit({ cwd: '/home/dev/p' }, 'hi'))).toEqual({
      sessionId: claude.SESSION_ID,
      cwd: '/home/dev/p',
    });
    const event = cursor.beforeSubmitPrompt({ root: '/home/dev/q' }, 'hi');
    expect(placeOfHookEvent('cursor', event)).toEqual({ sessionId: cursor.CONVERSATION_ID, cwd: '/home/dev/q' });
    expect(placeOfHookEvent('claude-code', event)).toEqual({ sessionId: cursor.CONVERSATION_ID, cwd: '/home/dev/q' });
    expect(placeOfHookEvent('nonesuch', event)).toBeNull();
    expect(placeOfHookEvent('cursor', { hook_event_name: 'stop' })).toBeNull();
    const gemini = {
      session_id: 'g-1',
      cwd: '/home/dev/g',
      transcript_path: null,
      hook_event_name: 'BeforeAgent',
      prompt: 'hi',
    };
    expect(placeOfHookEvent('gemini', gemini)).toEqual({ sessionId: 'g-1', cwd: '/home/dev/g' });
    expect(
      placeOfHookEvent('opencode', { event: 'prompt', session_id: 'ses_1', cwd: '/home/dev/o', prompt: 'hi' }),
    ).toEqual({ sessionId: 'ses_1', cwd: '/home/dev/o' });
  });
});
