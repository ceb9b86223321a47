import { describe, expect, it } from 'vitest';
import { parseHookEvent } from './event.js';
import * as p from './test/payloads.js';

const c = { cwd: '/home/dev/project' };
const parse = (payload: unknown) => parseHookEvent(JSON.stringify(payload));

describe('parseHookEvent', () => {
  it('reads a prompt', () => {
    expect(parse(p.userPromptSubmit(c, 'Add a README'))).toEqual({
      ok: true,
      event: { kind: 'prompt', sessionId: p.SESSION_ID, cwd: c.cwd, prompt: 'Add a README' },
    });
  });

  it.each([
    ['Write', p.write(c, '/home/dev/project/a.ts', 'x'), '/home/dev/project/a.ts'],
    ['Edit', p.edit(c, 'src/b.ts', 'a', 'b'), 'src/b.ts'],
    ['MultiEdit', p.multiEdit(c, '/home/dev/project/c.ts', [{ old_string: 'a', new_string: 'b' }]), '/home/dev/project/c.ts'],
    ['NotebookEdit', p.notebookEdit(c, '/home/dev/project/n.ipynb', 'print(1)'), '/home/dev/project/n.ipynb'],
  ])('reads the path a %s is about to change', (tool, payload, path) => {
    expect(parse(payload)).toEqual({ ok: true, event: { kind: 'file-change', sessionId: p.SESSION_ID, cwd: c.cwd, tool, path } });
  });

  it('reads a shell command', () => {
    expect(parse(p.bash(c, 'npm test'))).toMatchObject({ ok: true, event: { kind: 'shell', command: 'npm test' } });
  });

  it('reads a stop with its transcript', () => {
    expect(parse(p.stop({ ...c, transcriptPath: '/t.jsonl' }))).toMatchObject({
      ok: true, event: { kind: 'stop', transcriptPath: '/t.jsonl', lastAssistantMessage: null },
    });
  });

  it('reads the reply a stop carries itself', () => {
    expect(parse({ ...p.stop(c), last_assistant_message: 'All done.' })).toMatchObject({
      ok: true, event: { kind: 'stop', lastAssistantMessage: 'All done.' },
    });
  });

  it('ignores events and tools it does not forward', () => {
    expect(parse({ ...p.stop(c), hook_event_name: 'SessionStart', source: 'startup' })).toMatchObject({ ok: false, ignored: true });
    expect(parse(p.preToolUse(c, 'Read', { file_path: '/x' }))).toMatchObject({ ok: false, ignored: true });
    expect(parse({ ...p.bash(c, 'ls'), hook_event_name: 'PostToolUse' })).toMatchObject({ ok: false, ignored: true });
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
