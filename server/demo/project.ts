// The demo's starting workspace: a small TypeScript to-do API, as a person's project looks
// before any agent touched it. Written straight to disk: this is the state turns start from.
export const PROJECT_FILES: Record<string, string> = {
  'package.json': `{
  "name": "todo-api",
  "version": "0.1.0",
  "private": true,
  "type": "module",
  "scripts": {
    "build": "tsc",
    "start": "node dist/index.js",
    "test": "node --test dist/test"
  },
  "devDependencies": {
    "typescript": "^5.9.0"
  }
}
`,
  'tsconfig.json': `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "strict": true,
    "outDir": "dist"
  },
  "include": ["src", "test"]
}
`,
  '.gitignore': 'node_modules/\ndist/\n',
  'src/index.ts': `import { createServer } from './server.js';
import { TodoStore } from './todos.js';

const port = Number(process.env.PORT ?? 3000);
const store = new TodoStore();

createServer(store).listen(port, () => {
  console.log(\`todo-api listening on http://localhost:\${port}\`);
});
`,
  'src/server.ts': `import http from 'node:http';
import type { TodoStore } from './todos.js';

export function createServer(store: TodoStore): http.Server {
  return http.createServer(async (req, res) => {
    if (req.method === 'GET' && req.url === '/todos') {
      return send(res, 200, store.list());
    }
    if (req.method === 'POST' && req.url === '/todos') {
      const body = await readJson(req);
      return send(res, 201, store.create(String(body.title ?? '')));
    }
    send(res, 404, { error: 'not found' });
  });
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString() || '{}');
}
`,
  'src/todos.ts': `import { slugify } from './utils.js';

export interface Todo {
  id: string;
  title: string;
  done: boolean;
}

export class TodoStore {
  private readonly todos = new Map<string, Todo>();

  list(): Todo[] {
    return [...this.todos.values()];
  }

  create(title: string): Todo {
    const todo = { id: slugify(title), title, done: false };
    this.todos.set(todo.id, todo);
    return todo;
  }

  complete(id: string): Todo | undefined {
    const todo = this.todos.get(id);
    if (todo) todo.done = true;
    return todo;
  }
}
`,
  'src/utils.ts': `export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}
`,
  'src/legacy/xml-export.ts': `import type { Todo } from '../todos.js';

/** @deprecated exports are JSON only since 0.1 */
export function toXml(todos: Todo[]): string {
  const items = todos.map((t) => \`  <todo id="\${t.id}" done="\${t.done}">\${t.title}</todo>\`);
  return ['<todos>', ...items, '</todos>'].join('\\n');
}
`,
  'src/legacy/csv-export.ts': `import type { Todo } from '../todos.js';

/** @deprecated exports are JSON only since 0.1 */
export function toCsv(todos: Todo[]): string {
  return ['id,title,done', ...todos.map((t) => \`\${t.id},"\${t.title}",\${t.done}\`)].join('\\n');
}
`,
  'src/legacy/README.md': '# legacy\n\nOld export formats, kept until the 0.2 release.\n',
  'test/todos.test.ts': `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TodoStore } from '../src/todos.js';

test('creates a todo with a slug id', () => {
  const store = new TodoStore();
  assert.equal(store.create('Buy milk').id, 'buy-milk');
});

test('completes a todo', () => {
  const store = new TodoStore();
  store.create('Write docs');
  assert.equal(store.complete('write-docs')?.done, true);
});
`,
};

/** A fixture bigger than the demo's size limit, so the console can show a skipped file. */
export function largeFixture(generation: number, bytes: number): string {
  const rows: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const row = JSON.stringify({
      id: i,
      title: `Sample task ${i} (generation ${generation})`,
      done: (i * 7 + generation) % 3 === 0,
      tags: ['demo', `batch-${i % 17}`],
    });
    rows.push(row);
    size += row.length + 2;
  }
  return `[\n${rows.join(',\n')}\n]\n`;
}
