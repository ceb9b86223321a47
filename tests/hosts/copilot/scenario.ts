// The session the Copilot real-CLI suite works through (from the test kit's start tree): the fake
// API's script of three prompts (create and edit with an edit that fails; bash's sed -i, rm, mv and
// a failing command; the MCP tool and a tool that does not exist).
import { join } from 'node:path';
import type { Block, Script } from './fake-api.js';

export const PROMPTS = {
  files: 'Turn 1: add a helper and use it',
  shell: 'Turn 2: tidy up in the shell',
  tools: 'Turn 3: write through the MCP server',
} as const;

/** Copilot names an MCP tool `<server>-<tool>`: the test kit's server `files`, its tool `write`. */
export const MCP_TOOL = 'files-write';

const text = (t: string): Block => ({ type: 'text', text: t });
const tool = (name: string, input: Record<string, unknown>): Block => ({ type: 'tool', name, input });

export function script(ws: string): Script {
  const at = (path: string) => join(ws, path);
  return {
    'Turn 1:': [
      [
        text("I'll add a helper first."),
        tool('create', {
          path: at('src/helper.ts'),
          file_text: 'export const shout = (s: string) => s.toUpperCase();\n',
        }),
      ],
      [tool('view', { path: at('src/app.ts') })],
      [tool('edit', { path: at('src/app.ts'), old_str: '"hello"', new_str: '"hello, world"' })],
      // Fails: no such text.
      [tool('edit', { path: at('src/app.ts'), old_str: 'not there', new_str: 'x' })],
      [text('Turn 1 done: helper added.')],
    ],
    'Turn 2:': [
      [tool('bash', { command: "sed -i 's/debug/release/' src/util.ts", description: 'Switch to release' })],
      [tool('bash', { command: 'rm scratch.txt && mv docs/old.md docs/renamed.md', description: 'Tidy' })],
      [tool('bash', { command: 'cat missing.txt', description: 'Fails' })],
      [text('Turn 2 done.')],
    ],
    'Turn 3:': [
      [tool(MCP_TOOL, { path: 'mcp/out.txt', text: 'written by an MCP tool\n' })],
      // Fails: Copilot has no such tool (it still sends preToolUse and postToolUseFailure).
      [tool('refactor_everything', { scope: 'all' })],
      [text('Turn 3 done.')],
    ],
  };
}
