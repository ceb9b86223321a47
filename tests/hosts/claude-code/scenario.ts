// The session the real-CLI suite has Claude Code work through: the start tree, and the fake
// API's script of five prompts (files, shell and an MCP tool, a subagent (in the background
// on 2.1.328), an API error, --max-turns).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NFD_NOTE, setUpProject } from '../../../server/testkit/hosts/scenario.js';
import type { Script } from './fake-api.js';

export const PROMPTS = {
  files: 'Turn 1: add a helper and use it\nwith care, and update the notebook',
  shell: '\n\nTurn 2: tidy up in the shell',
  subagent: 'Turn 3: ask a subagent to fix the notes',
  failure: 'Turn 4: this one fails',
  maxTurns: 'Turn 5: loop until stopped',
} as const;
const SUBTASK = 'SUBTASK: fix the NFD note';
const TASK_NOTIFICATION = '<task-notification>';
export const SUBAGENT_REPORTED = 'The subagent reported back.';

const notebook = (source: string) =>
  `${JSON.stringify(
    {
      cells: [{ cell_type: 'code', id: 'intro', metadata: {}, execution_count: null, outputs: [], source: [source] }],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    },
    null,
    1,
  )}\n`;

export async function setUpWorkspace(ws: string): Promise<void> {
  await setUpProject(ws);
  await mkdir(join(ws, 'notes'));
  await writeFile(join(ws, 'notes', 'analysis.ipynb'), notebook('print(1)'));
  await writeFile(join(ws, NFD_NOTE), 'déjà vu\n');
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const tool = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, name, input });

export function script(ws: string): Script {
  const at = (path: string) => join(ws, path);
  return {
    'Turn 1:': [
      // A failing Edit: 2.1.197 refuses it before any hook runs (the file was not read); 2.1.328
      // runs its hooks and the tool fails (the string is not in the file).
      [tool('Edit', { file_path: at('src/util.ts'), old_string: 'not in the file', new_string: 'never' })],
      [
        text("I'll add a helper first."),
        tool('Write', {
          file_path: at('src/helper.ts'),
          content: 'export const shout = (s: string) => s.toUpperCase();\n',
        }),
      ],
      [tool('Read', { file_path: at('src/app.ts') })],
      [tool('Edit', { file_path: at('src/app.ts'), old_string: '"hello"', new_string: '"hello, world"' })],
      [tool('Read', { file_path: at('notes/analysis.ipynb') })],
      [tool('NotebookEdit', { notebook_path: at('notes/analysis.ipynb'), cell_id: 'intro', new_source: 'print(2)' })],
      [text('Turn 1 done: helper added.')],
    ],
    'Turn 2:': [
      [
        text('Running sed.'),
        tool('Bash', { command: "sed -i 's/debug/release/' src/util.ts", description: 'Switch to release' }),
      ],
      [tool('Bash', { command: 'rm scratch.txt && mv docs/old.md docs/renamed.md', description: 'Tidy' })],
      [
        tool('Bash', {
          command: 'mkdir -p gen && cat > gen/config.json <<\'EOF\'\n{"release": true}\nEOF',
          description: 'Generate',
        }),
      ],
      [tool('mcp__files__write', { path: 'mcp/out.txt', text: 'written by an MCP tool\n' })],
      [text('Turn 2 done.')],
    ],
    'Turn 3:': [
      [tool('Agent', { description: 'fix the accents', prompt: SUBTASK, subagent_type: 'general-purpose' })],
      [text('Turn 3 done: the subagent fixed it.')],
    ],
    // 2.1.328 prompts itself when the background subagent is done, and answers that too.
    [TASK_NOTIFICATION]: [[text(SUBAGENT_REPORTED)]],
    [SUBTASK]: [
      [tool('Read', { file_path: at(NFD_NOTE) })],
      [tool('Edit', { file_path: at(NFD_NOTE), old_string: 'vu', new_string: 'vu again' })],
      [tool('Write', { file_path: at('src/sub.ts'), content: 'export const sub = 1;\n' })],
      [text('Subagent done.')],
    ],
    'Turn 4:': [
      { error: { status: 400, type: 'invalid_request_error', message: 'the scripted API refuses this turn' } },
    ],
    'Turn 5:': [
      [tool('Bash', { command: 'echo 1 >> loop.txt' })],
      [tool('Bash', { command: 'echo 2 >> loop.txt' })],
      [tool('Bash', { command: 'echo 3 >> loop.txt' })],
    ],
  };
}
