// The session the OpenCode real-CLI suite works through (from the test kit's start tree): the fake API's
// script of three prompts (write and edit with a failing edit; bash's sed -i, rm, mv and a failing
// command, and an MCP tool; a sub-agent, through the task tool, that writes and runs).
import { join } from 'node:path';
import type { Block, Script } from './fake-api.js';

export const PROMPTS = {
  files: 'Turn 1: add a helper and use it',
  shell: 'Turn 2: tidy up in the shell',
  subagent: 'Turn 3: ask a sub-agent for notes',
} as const;
const SUBTASK = 'SUBTASK: write the notes';

const text = (t: string): Block => ({ type: 'text', text: t });
const tool = (name: string, input: Record<string, unknown>): Block => ({ type: 'tool', name, input });

export function script(ws: string): Script {
  const at = (path: string) => join(ws, path);
  return {
    'Turn 1:': [
      [
        text("I'll add a helper first."),
        tool('write', {
          filePath: at('src/helper.ts'),
          content: 'export const shout = (s: string) => s.toUpperCase();\n',
        }),
      ],
      [tool('read', { filePath: at('src/app.ts') })],
      [tool('edit', { filePath: at('src/app.ts'), oldString: '"hello"', newString: '"hello, world"' })],
      // Fails: no such text (OpenCode reports no tool.execute.after for it).
      [tool('edit', { filePath: at('src/app.ts'), oldString: 'not there', newString: 'x' })],
      [text('Turn 1 done: helper added.')],
    ],
    'Turn 2:': [
      [tool('bash', { command: "sed -i 's/debug/release/' src/util.ts", description: 'Switch to release' })],
      [tool('bash', { command: 'rm scratch.txt && mv docs/old.md docs/renamed.md', description: 'Tidy' })],
      [tool('bash', { command: 'cat missing.txt', description: 'Fails' })],
      [tool('files_write', { path: 'mcp/out.txt', text: 'written by an MCP tool\n' })],
      [text('Turn 2 done.')],
    ],
    'Turn 3:': [
      [tool('task', { description: 'write the notes', prompt: SUBTASK, subagent_type: 'general' })],
      [text('Turn 3 done: the sub-agent wrote them.')],
    ],
    [SUBTASK]: [
      [tool('write', { filePath: at('docs/notes.md'), content: '# Notes\n' })],
      [tool('bash', { command: 'echo noted >> docs/notes.md', description: 'Append' })],
      [text('Sub-agent done.')],
    ],
  };
}
