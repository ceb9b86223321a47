// The scripted agent sessions the demo replays: every console feature gets something real to
// show (new files, edits, a rename, a move, a recursive delete, a binary file, a file over the
// size limit, an exec turn, chat messages, and a turn that was rolled back).
import { largeFixture } from './project.js';
import { logoPng } from './logo.js';

export type Step =
  /** `force`: the original is too large to keep; the host says so and writes anyway (shown as skipped). */
  | { op: 'write'; path: string; content: string | Uint8Array; force?: boolean }
  | { op: 'edit'; path: string; replace: [string, string][] }
  | { op: 'delete'; path: string; recursive?: boolean }
  | { op: 'rename' | 'move'; from: string; to: string }
  | { op: 'mkdir'; path: string }
  | { op: 'exec'; tool: string; command: string }
  | { op: 'message'; role: 'assistant' | 'tool' | 'system'; content: string };

export interface ScriptedTurn {
  prompt: string;
  steps: Step[];
  reply: string;
  /** Rolled back from the console once the script is done. */
  rollBack?: boolean;
}

export interface ScriptedSession {
  sessionId: string;
  platform: string;
  sessionType: string;
  turns: ScriptedTurn[];
}

/** Files over this size are recorded as skipped in the demo. */
export const DEMO_MAX_FILE_SIZE = 1024 * 1024;
export const LARGE_FIXTURE_BYTES = DEMO_MAX_FILE_SIZE + 200 * 1024;

const chat: ScriptedSession = {
  sessionId: 'demo-webui-chat',
  platform: 'webui',
  sessionType: 'chat',
  turns: [
    {
      prompt: 'Add a README that explains how to run the API, and document the endpoints',
      steps: [
        {
          op: 'write',
          path: 'README.md',
          content:
            '# todo-api\n\nA tiny to-do list HTTP API.\n\n## Run\n\n```sh\nnpm install\nnpm run build\nnpm start\n```\n\nSee [docs/api.md](docs/api.md) for the endpoints.\n',
        },
        { op: 'mkdir', path: 'docs' },
        {
          op: 'write',
          path: 'docs/api.md',
          content:
            '# Endpoints\n\n| method | path | body | answer |\n|---|---|---|---|\n| GET | /todos | | `Todo[]` |\n| POST | /todos | `{title}` | `Todo` (201) |\n',
        },
      ],
      reply: 'I added README.md with the run commands and docs/api.md with the two endpoints.',
    },
    {
      prompt: 'Validate titles in createTodo: no empty titles, at most 200 characters. Add tests.',
      steps: [
        {
          op: 'write',
          path: 'src/validate.ts',
          content:
            "export class ValidationError extends Error {}\n\nexport function checkTitle(title: string): string {\n  const trimmed = title.trim();\n  if (trimmed.length === 0) throw new ValidationError('title must not be empty');\n  if (trimmed.length > 200) throw new ValidationError('title must be at most 200 characters');\n  return trimmed;\n}\n",
        },
        {
          op: 'edit',
          path: 'src/todos.ts',
          replace: [
            [
              "import { slugify } from './utils.js';\n",
              "import { slugify } from './utils.js';\nimport { checkTitle } from './validate.js';\n",
            ],
            [
              '  create(title: string): Todo {\n    const todo = { id: slugify(title), title, done: false };',
              '  create(rawTitle: string): Todo {\n    const title = checkTitle(rawTitle);\n    const todo = { id: slugify(title), title, done: false };',
            ],
          ],
        },
        {
          op: 'edit',
          path: 'test/todos.test.ts',
          replace: [
            [
              "test('completes a todo'",
              "test('refuses an empty title', () => {\n  const store = new TodoStore();\n  assert.throws(() => store.create('   '), /must not be empty/);\n});\n\ntest('completes a todo'",
            ],
          ],
        },
        { op: 'message', role: 'tool', content: 'write src/validate.ts\nedit src/todos.ts\nedit test/todos.test.ts' },
      ],
      reply:
        'createTodo now trims titles and refuses empty or over-long ones (src/validate.ts), with a test for the empty case.',
    },
    {
      prompt: 'utils.ts only holds string helpers: rename it to strings.ts',
      steps: [
        { op: 'rename', from: 'src/utils.ts', to: 'src/strings.ts' },
        { op: 'edit', path: 'src/todos.ts', replace: [["from './utils.js'", "from './strings.js'"]] },
      ],
      reply: 'Renamed src/utils.ts to src/strings.ts and updated the import in src/todos.ts.',
    },
    {
      prompt: 'Add a logo for the docs and regenerate the large sample dataset',
      steps: [
        { op: 'write', path: 'assets/logo.png', content: logoPng() },
        { op: 'edit', path: 'README.md', replace: [['# todo-api\n', '# todo-api\n\n![logo](assets/logo.png)\n']] },
        {
          op: 'write',
          path: 'fixtures/large-dataset.json',
          content: largeFixture(2, LARGE_FIXTURE_BYTES),
          force: true,
        },
      ],
      reply:
        'Added assets/logo.png (32×32) and regenerated fixtures/large-dataset.json with a second generation of sample rows.',
    },
    {
      prompt: 'Run the tests and fix whatever fails',
      steps: [
        { op: 'exec', tool: 'exec', command: 'npm run build && npm test' },
        {
          op: 'message',
          role: 'tool',
          content: "not ok 2 - refuses an empty title\n  error: 'title must not be empty' was thrown by slugify first",
        },
        {
          op: 'edit',
          path: 'src/strings.ts',
          replace: [
            [
              'export function slugify(text: string): string {\n  return text',
              "export function slugify(text: string): string {\n  if (text.length === 0) return 'untitled';\n  return text",
            ],
          ],
        },
        { op: 'exec', tool: 'exec', command: 'npm test' },
      ],
      reply: 'One test failed; slugify now handles empty input. All 3 tests pass.',
    },
  ],
};

const claudeCode: ScriptedSession = {
  sessionId: 'demo-claude-code',
  platform: 'claude-code',
  sessionType: 'cli',
  turns: [
    {
      prompt: 'Move the HTTP server into src/http/ so the transport is apart from the domain',
      steps: [
        { op: 'move', from: 'src/server.ts', to: 'src/http/server.ts' },
        { op: 'edit', path: 'src/http/server.ts', replace: [["from './todos.js'", "from '../todos.js'"]] },
        { op: 'edit', path: 'src/index.ts', replace: [["from './server.js'", "from './http/server.js'"]] },
      ],
      reply: 'Moved src/server.ts to src/http/server.ts and fixed both imports.',
    },
    {
      prompt: 'Remove the legacy exporters, nothing uses them any more',
      steps: [
        { op: 'exec', tool: 'run_grep', command: "grep -rn 'legacy/' src test" },
        { op: 'delete', path: 'src/legacy', recursive: true },
      ],
      reply: 'Nothing imported src/legacy/, so I deleted the folder (xml-export.ts, csv-export.ts, README.md).',
    },
    {
      prompt: 'Add a CHANGELOG and bump the version to 0.2.0',
      steps: [
        {
          op: 'write',
          path: 'CHANGELOG.md',
          content:
            '# Changelog\n\n## 0.2.0\n\n- Titles are validated (empty and over-long titles are refused).\n- The HTTP server moved to `src/http/`.\n- The legacy XML and CSV exporters are gone.\n',
        },
        { op: 'edit', path: 'package.json', replace: [['"version": "0.1.0"', '"version": "0.2.0"']] },
      ],
      reply: 'CHANGELOG.md lists the 0.2.0 changes; package.json is at 0.2.0.',
    },
    {
      prompt: 'Add a DEBUG flag that logs every request',
      steps: [
        {
          op: 'write',
          path: 'src/debug.ts',
          content:
            "export const debug = process.env.DEBUG === '1'\n  ? (...args: unknown[]) => console.error('[todo-api]', ...args)\n  : () => {};\n",
        },
        {
          op: 'edit',
          path: 'src/index.ts',
          replace: [
            [
              "import { TodoStore } from './todos.js';\n",
              "import { debug } from './debug.js';\nimport { TodoStore } from './todos.js';\n",
            ],
          ],
        },
      ],
      reply: 'Added src/debug.ts; set DEBUG=1 to log requests.',
      rollBack: true,
    },
  ],
};

export const DEMO_SESSIONS: readonly ScriptedSession[] = [chat, claudeCode];
