// A turn's chat from a Copilot CLI 1.0.102 session log (events.jsonl), read newest first.
import { describe, expect, it } from 'vitest';
import { callIdOf } from './event.js';
import { copilotChat } from './host.js';
import { copilotTranscripts, copilotTurnCollector } from './transcript.js';

const line = (type: string, data: object) => JSON.stringify({ type, data, id: 'x', timestamp: '', parentId: null });
const LOG = [
  line('session.start', { sessionId: 's' }),
  line('user.message', { content: 'Turn 1: edit', transformedContent: '<current_datetime>…\n\nTurn 1: edit' }),
  line('assistant.message', {
    messageId: 'm1',
    content: 'Editing.',
    toolRequests: [{ toolCallId: 'c1', name: 'edit', arguments: { path: '/w/src/a.ts', old_str: 'a', new_str: 'b' } }],
  }),
  line('tool.execution_complete', { toolCallId: 'c1', success: true }),
  line('assistant.message', { messageId: 'm2', content: 'Turn 1 done.', toolRequests: [] }),
  line('hook.start', { hookType: 'agentStop', input: {} }),
  line('user.message', { content: 'Turn 2: shell' }),
  line('assistant.message', {
    messageId: 'm3',
    content: '',
    toolRequests: [{ toolCallId: 'c2', name: 'bash', arguments: { command: 'rm x', description: 'rm' } }],
  }),
  line('assistant.message', { messageId: 'm4', content: 'Turn 2 done.', toolRequests: [] }),
];

function collector(prompt: string | null) {
  const collector = copilotTurnCollector(prompt);
  for (const text of [...LOG].reverse()) if (collector.take(text)) break;
  return collector;
}
const collect = (prompt: string | null) => collector(prompt).items();

describe('copilotTurnCollector', () => {
  it("collects a turn's texts and calls after its prompt, each call with the hooks' call id", () => {
    const args = { path: '/w/src/a.ts', old_str: 'a', new_str: 'b' };
    expect(collect('Turn 1: edit')).toEqual([
      { kind: 'text', messageId: 'm1', text: 'Editing.' },
      { kind: 'tool', id: callIdOf('edit', args), name: 'edit', input: args },
      { kind: 'text', messageId: 'm2', text: 'Turn 1 done.' },
    ]);
    expect(copilotChat(collect('Turn 2: shell'), null, '/w')).toEqual([
      { role: 'tool', content: 'bash(rm x)' },
      { role: 'assistant', content: 'Turn 2 done.' },
    ]);
    expect(copilotChat(collect('Turn 1: edit'), null, '/w')[1]).toEqual({ role: 'tool', content: 'edit(src/a.ts)' });
    expect(collect('never asked')).toEqual([]);
  });

  it('says a turn has ended once the log holds its agentStop hook (Copilot writes the last reply behind)', () => {
    expect(collector('Turn 1: edit').ended?.()).toBe(true);
    expect(collector('Turn 2: shell').ended?.()).toBe(false);
  });

  it('reads below $COPILOT_HOME/session-state (~/.copilot by default) only', () => {
    expect(copilotTranscripts.folders('/home/dev', {})).toEqual(['/home/dev/.copilot/session-state']);
    expect(copilotTranscripts.folders('/home/dev', { COPILOT_HOME: '/opt/c' })).toEqual(['/opt/c/session-state']);
    expect(copilotTranscripts.folders('/home/dev', { COPILOT_HOME: 'rel' })).toEqual([
      '/home/dev/.copilot/session-state',
    ]);
  });
});
