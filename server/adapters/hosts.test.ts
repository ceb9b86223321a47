import { describe, expect, it } from 'vitest';
import * as claude from './claude-code/test/payloads.js';
import * as cursor from './cursor/test/payloads.js';
import { HOSTS, placeOfHookEvent } from './hosts.js';

describe('the hosts', () => {
  it('have distinct names, each with a platform and a notice', () => {
    expect(new Set(HOSTS.map((host) => host.name)).size).toBe(HOSTS.length);
    for (const host of HOSTS) expect(host.notice('turnback is not recording').stdout ?? host.notice('x').stderr).toContain('turnback is not recording');
  });

  it('place a raw event: its session and folder as its host reads them, Cursor\'s through Claude Code\'s route too', () => {
    expect(placeOfHookEvent('claude-code', claude.userPromptSubmit({ cwd: '/home/dev/p' }, 'hi'))).toEqual({ sessionId: claude.SESSION_ID, cwd: '/home/dev/p' });
    const event = cursor.beforeSubmitPrompt({ root: '/home/dev/q' }, 'hi');
    expect(placeOfHookEvent('cursor', event)).toEqual({ sessionId: cursor.CONVERSATION_ID, cwd: '/home/dev/q' });
    expect(placeOfHookEvent('claude-code', event)).toEqual({ sessionId: cursor.CONVERSATION_ID, cwd: '/home/dev/q' });
    expect(placeOfHookEvent('nonesuch', event)).toBeNull();
    expect(placeOfHookEvent('cursor', { hook_event_name: 'stop' })).toBeNull();
  });
});
