import { describe, expect, it } from 'vitest';
import { codexHome } from './home.js';
import { codexTranscripts, rolloutCollector } from './rollout.js';
import { recordedEvents, recordedRollout } from './test/fixtures.js';

const newestFirst = () =>
  recordedRollout()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .reverse();

function turnOf(prompt: string | null) {
  const collector = rolloutCollector(prompt);
  let found = false;
  for (const line of newestFirst()) if ((found = collector.take(line))) break;
  return { items: collector.items(), found };
}

describe('rolloutCollector on a recorded Codex 0.169.0 rollout', () => {
  it("reads a turn's replies and tool calls in order, named and id'd as the hooks name them", () => {
    const { items, found } = turnOf('Turn 1: do it');
    expect(found).toBe(true);
    const callIds = recordedEvents()
      .filter((e) => e.hook_event_name === 'PreToolUse' && e.prompt === undefined && !e.agent_id)
      .slice(0, 3)
      .map((e) => e.tool_use_id);
    expect(items).toEqual([
      {
        kind: 'tool',
        id: callIds[0],
        name: 'apply_patch',
        input: { command: expect.stringMatching(/^\*\*\* Begin Patch\n\*\*\* Add File: src\/new.ts/) },
      },
      {
        kind: 'tool',
        id: callIds[1],
        name: 'Bash',
        input: { command: "sed -i 's/alpha/ALPHA/' a.txt && rm scratch.txt && mv old.md new.md" },
      },
      { kind: 'tool', id: callIds[2], name: 'Bash', input: { command: 'cat nope.txt' } },
      { kind: 'text', messageId: expect.any(String), text: 'Turn 1 done.' },
    ]);
  });

  it('names an MCP call by its server and tool, and keeps a patch that failed', () => {
    const { items } = turnOf('Turn 3: mcp');
    expect(items.map((item) => (item.kind === 'tool' ? item.name : item.text))).toEqual([
      'mcp__files__write',
      'apply_patch',
      'Turn 3 done.',
    ]);
  });

  it('takes a sub-agent tool call as such, and no injected user message for a prompt', () => {
    const { items, found } = turnOf('Turn 2: sub');
    expect(found).toBe(true);
    expect(items.map((item) => (item.kind === 'tool' ? item.name : item.text))).toEqual([
      'spawn_agent',
      'wait_agent',
      'Turn 2 done.',
    ]);
  });

  it('with no prompt, reads the last turn back to its start', () => {
    const { items, found } = turnOf(null);
    expect(found).toBe(true);
    expect(items).toEqual([]); // the refused turn: its prompt and nothing else
    expect(turnOf('Turn 3: mcp').items).toHaveLength(3);
  });

  it('skips lines that are no JSON or no entry', () => {
    const collector = rolloutCollector('p');
    expect(collector.take('{not json')).toBe(false);
    expect(collector.take('[1]')).toBe(false);
    expect(
      collector.take(
        JSON.stringify({
          type: 'response_item',
          payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'p' }] },
        }),
      ),
    ).toBe(true);
    expect(collector.items()).toEqual([]);
  });
});

describe('codex transcript folders', () => {
  it('are the sessions of $CODEX_HOME, else of ~/.codex', () => {
    expect(codexHome('/home/u', {})).toBe('/home/u/.codex');
    expect(codexHome('/home/u', { CODEX_HOME: '/opt/codex' })).toBe('/opt/codex');
    expect(codexHome('/home/u', { CODEX_HOME: 'relative' })).toBe('/home/u/.codex');
    expect(codexTranscripts.folders('/home/u', {})).toEqual([
      '/home/u/.codex/sessions',
      '/home/u/.codex/archived_sessions',
    ]);
  });
});
