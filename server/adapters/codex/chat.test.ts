import { describe, expect, it } from 'vitest';
import { codexChat } from './chat.js';
import { rolloutCollector } from './rollout.js';
import { recordedRollout } from './test/fixtures.js';

function itemsOf(prompt: string) {
  const collector = rolloutCollector(prompt);
  for (const line of recordedRollout('/home/u', '/w').split('\n').filter(Boolean).reverse())
    if (collector.take(line)) break;
  return collector.items();
}

describe('codexChat', () => {
  it('shows a patch by its files, a command by its first line, and every reply', () => {
    expect(codexChat(itemsOf('Turn 1: do it'), 'Turn 1 done.', '/w')).toEqual([
      { role: 'tool', content: 'apply_patch(src/new.ts, a.txt)' },
      { role: 'tool', content: "Bash(sed -i 's/alpha/ALPHA/' a.txt && rm scratch.txt && mv old.md new.md)" },
      { role: 'tool', content: 'Bash(cat nope.txt)' },
      { role: 'assistant', content: 'Turn 1 done.' },
    ]);
  });

  it("shows a sub-agent by its task, and adds the Stop's reply when the rollout lacks it", () => {
    expect(codexChat(itemsOf('Turn 2: sub').slice(0, 1), 'Turn 2 done.', '/w')).toEqual([
      { role: 'tool', content: 'spawn_agent(SUBTASK: write sub.txt)' },
      { role: 'assistant', content: 'Turn 2 done.' },
    ]);
  });
});
