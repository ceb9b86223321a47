// The session the Gemini real-CLI suite works through (from the test kit's start tree): the fake API's
// script of three prompts (file tools with a failing replace; the shell's sed -i, rm, mv and a
// failing command, and an MCP tool; a file tool and the shell together).
import { join } from 'node:path';
import type { Part, Script } from './fake-api.js';

export const PROMPTS = {
  files: 'Turn 1: add a helper and use it',
  shell: 'Turn 2: tidy up in the shell',
  mixed: 'Turn 3: write notes, generate the config, ask a sub-agent',
} as const;
const SUBTASK = 'SUBTASK: add the sub module';

const text = (t: string): Part => ({ text: t });
const call = (name: string, args: Record<string, unknown>): Part => ({ functionCall: { name, args } });

export function script(ws: string): Script {
  const at = (path: string) => join(ws, path);
  return {
    'Turn 1:': [
      [
        text("I'll add a helper first."),
        call('write_file', {
          file_path: at('src/helper.ts'),
          content: 'export const shout = (s: string) => s.toUpperCase();\n',
        }),
      ],
      [
        call('replace', {
          file_path: at('src/app.ts'),
          old_string: '"hello"',
          new_string: '"hello, world"',
          instruction: 'greet the world',
        }),
      ],
      // Fails: no such text. Gemini reports it in AfterTool's tool_response.error.
      [
        call('replace', {
          file_path: at('src/app.ts'),
          old_string: 'not there',
          new_string: 'x',
          instruction: 'a miss',
        }),
      ],
      [text('Turn 1 done: helper added.')],
    ],
    'Turn 2:': [
      [
        call('run_shell_command', {
          command: "sed -i 's/debug/release/' src/util.ts",
          description: 'Switch to release',
        }),
      ],
      [call('run_shell_command', { command: 'rm scratch.txt && mv docs/old.md docs/renamed.md', description: 'Tidy' })],
      [call('run_shell_command', { command: 'cat missing.txt', description: 'Fails' })],
      [call('mcp_files_write', { path: 'mcp/out.txt', text: 'written by an MCP tool\n' })],
      [text('Turn 2 done.')],
    ],
    'Turn 3:': [
      [call('write_file', { file_path: at('docs/notes.md'), content: '# Notes\n' })],
      [
        call('run_shell_command', {
          command: 'mkdir -p gen && printf \'{"release": true}\\n\' > gen/config.json',
          description: 'Generate',
        }),
      ],
      [call('invoke_agent', { agent_name: 'generalist', prompt: SUBTASK })],
      [text('Turn 3 done.')],
    ],
    [SUBTASK]: [
      [call('write_file', { file_path: at('src/sub.ts'), content: 'export const sub = 1;\n' })],
      [call('complete_task', { result: 'Sub-agent done.' })],
    ],
  };
}
