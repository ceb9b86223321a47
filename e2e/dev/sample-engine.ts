// An in-memory engine with varied sample data, for looking at the console without seeding a
// real workspace (`npx tsx e2e/dev/preview-server.ts`). Rollbacks only flip statuses.
import { EventEmitter } from 'node:events';
import type { Engine } from '../../server/engine/api.js';
import type {
  Diff,
  FileChange,
  Manifest,
  Message,
  Plan,
  RollbackResult,
  Session,
  Side,
  Turn,
} from '../../server/protocol.js';

const T0 = Date.now() - 3 * 3600_000;
const iso = (offsetSeconds: number) => new Date(T0 + offsetSeconds * 1000).toISOString();

const TITLES = [
  'Add a login form with email and password validation',
  'Fix the failing date parser test',
  'Rename utils.ts to helpers.ts and update imports',
  'Run the migrations and seed the database',
  'Refactor the settings page into smaller components',
  'Delete the old build scripts',
];

function file(uri: string, size: number): FileChange['after'] {
  return { type: 'file', hash: uri.length.toString(16).padStart(64, '0'), size, mode: 0o644 };
}

function filesOf(turn: Turn): FileChange[] {
  const n = turn.number;
  return [
    {
      uri: 'workspace:/src/components/LoginForm.tsx',
      change: 'created',
      before: null,
      after: file('a', 2140),
      lines: { added: 64, removed: 0 },
    },
    {
      uri: 'workspace:/src/app.ts',
      change: 'modified',
      before: file('b', 820),
      after: file('c', 910),
      lines: { added: 6 + (n % 4), removed: 2 },
    },
    {
      uri: 'workspace:/src/helpers.ts',
      from: 'workspace:/src/utils.ts',
      change: 'renamed',
      before: file('d', 400),
      after: file('d', 400),
      lines: { added: 0, removed: 0 },
    },
    {
      uri: 'workspace:/docs/old-build.md',
      change: 'deleted',
      before: file('e', 300),
      after: null,
      lines: { added: 0, removed: 12 },
    },
    { uri: 'workspace:/assets/logo.png', change: 'modified', before: file('f', 18_000), after: file('g', 21_000) },
    {
      uri: 'workspace:/data/dump.sql',
      change: 'created',
      before: null,
      after: file('h', 40_000_000),
      skipped: 'too-large',
    },
    { uri: 'workspace:/scripts', change: 'dir-created', before: null, after: { type: 'dir', mode: 0o755 } },
  ].slice(0, turn.fileCount + turn.skippedCount) as FileChange[];
}

const APP_BEFORE = `import { createServer } from './server';\nimport { loadConfig } from './config';\n\nconst config = loadConfig();\n\nexport function main() {\n  const server = createServer(config);\n  server.listen(config.port);\n  console.log('listening on', config.port);\n}\n`;
const APP_AFTER = `import { createServer } from './server';\nimport { loadConfig } from './config';\nimport { LoginForm } from './components/LoginForm';\n\nconst config = loadConfig();\n\nexport function main() {\n  const server = createServer(config, { routes: [LoginForm] });\n  server.listen(config.port, '127.0.0.1');\n  console.info(\`listening on \${config.port}\`);\n}\n`;

function textSide(text: string | null): Side {
  return text === null
    ? { exists: false, binary: false, tooLarge: false, truncated: false, size: 0, text: null }
    : { exists: true, binary: false, tooLarge: false, truncated: false, size: text.length, text };
}

export function createSampleEngine(): Engine {
  const events = new EventEmitter();
  const sessions: Session[] = [
    {
      sessionId: 'webui-7f3a9c',
      platform: 'webui',
      sessionType: 'chat',
      title: 'Add rate limiting to the API',
      turnCount: 5000,
      lastActivity: iso(10_000),
      activeTurnId: 'big-5000',
      origin: 'person',
    },
    {
      sessionId: 'cc-2d81f0e4-a1b2',
      platform: 'claude-code',
      sessionType: 'cli',
      title: 'Fix the flaky login test',
      turnCount: 6,
      lastActivity: iso(6_000),
      activeTurnId: null,
      origin: 'agent',
    },
    {
      sessionId: 'webui-empty',
      platform: 'webui',
      sessionType: 'task',
      title: '',
      turnCount: 0,
      lastActivity: iso(100),
      activeTurnId: null,
      origin: 'person',
    },
  ];
  const turns = new Map<string, Turn[]>();
  const make = (sessionId: string, prefix: string, count: number, active: boolean) =>
    Array.from({ length: count }, (_, index): Turn => {
      const number = index + 1;
      const rollback = number % 11 === 0;
      return {
        turnId: `${prefix}-${number}`,
        sessionId,
        number,
        kind: rollback ? 'rollback' : 'agent',
        rollbackOf: rollback ? [`${prefix}-${number - 1}`] : undefined,
        title: rollback ? '' : TITLES[number % TITLES.length],
        status:
          active && number === count
            ? 'active'
            : number % 11 === 10
              ? 'rolled-back'
              : number % 13 === 0
                ? 'partially-rolled-back'
                : 'committed',
        interrupted: number % 17 === 0,
        startedAt: iso(number * 2),
        endedAt: active && number === count ? null : iso(number * 2 + 1),
        fileCount: 1 + (number % 6),
        skippedCount: number % 6 === 5 ? 1 : 0,
        execUsed: number % 4 === 0,
        execCaptured: number % 8 === 0,
        execCommands:
          number % 4 === 0
            ? [
                {
                  execId: `x-${number}`,
                  tool: 'exec',
                  command: 'npm run migrate && npm test',
                  commandBytes: 27,
                  at: iso(number * 2),
                  endedAt: iso(number * 2),
                  changed: [],
                },
              ]
            : [],
        preview: [],
        messageCount: 3,
        lines: { added: number % 40, removed: number % 7 },
      };
    });
  turns.set('webui-7f3a9c', make('webui-7f3a9c', 'big', 5000, true));
  turns.set('cc-2d81f0e4-a1b2', make('cc-2d81f0e4-a1b2', 'cc', 6, false));
  turns.set('webui-empty', []);
  const allTurns = () => [...turns.values()].flat();
  const findTurn = (turnId: string) => allTurns().find((turn) => turn.turnId === turnId)!;
  const messagesOf = (turn: Turn): Message[] => [
    {
      id: `${turn.turnId}-m1`,
      sessionId: turn.sessionId,
      turnId: turn.turnId,
      role: 'user',
      content: turn.title,
      ts: Date.parse(turn.startedAt),
    },
    {
      id: `${turn.turnId}-m2`,
      sessionId: turn.sessionId,
      turnId: turn.turnId,
      role: 'assistant',
      content: 'I will add the form component, wire it into the app and add tests.',
      ts: Date.parse(turn.startedAt) + 500,
    },
    {
      id: `${turn.turnId}-m3`,
      sessionId: turn.sessionId,
      turnId: turn.turnId,
      role: 'tool',
      content: 'write workspace:/src/components/LoginForm.tsx (2.1 KiB)',
      ts: Date.parse(turn.startedAt) + 900,
    },
  ];
  const plan = (turnId: string, withChat = false): Plan => ({
    turnId,
    actions: [
      { uri: 'workspace:/src/components/LoginForm.tsx', action: 'delete', conflict: false },
      { uri: 'workspace:/src/app.ts', action: 'restore', conflict: true },
      { uri: 'workspace:/src/utils.ts', from: 'workspace:/src/helpers.ts', action: 'move-back', conflict: false },
    ],
    conflicts: ['workspace:/src/app.ts'],
    unrestorable: [{ uri: 'workspace:/data/dump.sql', code: 'TOO_LARGE' }],
    messages: withChat ? messagesOf(findTurn(turnId)) : [],
  });
  const result = (turnId: string): RollbackResult => ({
    ok: false,
    turnId,
    rollbackTurnId: `${turnId}-rb`,
    restored: ['workspace:/src/app.ts'],
    deleted: ['workspace:/src/components/LoginForm.tsx'],
    movedBack: [{ from: 'workspace:/src/helpers.ts', to: 'workspace:/src/utils.ts' }],
    unchanged: [],
    errors: [{ uri: 'workspace:/data/dump.sql', code: 'TOO_LARGE', message: 'skipped at capture: larger than 10 MiB' }],
  });
  const noop = async () => {
    throw new Error('not in the sample engine');
  };

  const engine = {
    dataDir: '/home/dev/.local/state/turnback/app-3f9a0c21b7de',
    workspace: '/home/dev/app',
    storage: { writeFile: noop, delete: noop, rename: noop, move: noop, mkdir: noop, readFile: noop },
    input: noop,
    message: noop,
    exec: noop,
    beforeMutate: noop,
    turnEnd: noop,
    listSessions: () => sessions,
    listTurns: (sessionId: string, opts?: { limit?: number; before?: number }) => {
      const list = (turns.get(sessionId) ?? []).filter(
        (turn) => opts?.before === undefined || turn.number < opts.before,
      );
      return opts?.limit ? list.slice(-opts.limit) : list;
    },
    getManifest: (turnId: string): Manifest => {
      const turn = findTurn(turnId);
      return { turn, files: filesOf(turn), entries: [] };
    },
    command: (turnId: string, execId: string) => {
      const found = findTurn(turnId).execCommands.find((c) => c.execId === execId);
      if (!found) throw Object.assign(new Error(`no command ${execId}`), { code: 'COMMAND_NOT_FOUND' });
      return found;
    },
    messages: (_sessionId: string, opts?: { turnId?: string }) =>
      opts?.turnId ? messagesOf(findTurn(opts.turnId)) : [],
    diff: async (_turnId: string, uri: string): Promise<Diff> => {
      if (uri.endsWith('.png'))
        return {
          uri,
          before: { ...textSide('x'), binary: true, text: null, size: 18_000 },
          after: { ...textSide('x'), binary: true, text: null, size: 21_000 },
        };
      if (uri.endsWith('.sql'))
        return {
          uri,
          before: textSide(null),
          after: { ...textSide('x'), tooLarge: true, text: null, size: 40_000_000 },
        };
      if (uri.endsWith('LoginForm.tsx'))
        return {
          uri,
          before: textSide(null),
          after: textSide('export function LoginForm() {\n  return <form />;\n}\n'),
        };
      return { uri, before: textSide(APP_BEFORE), after: textSide(APP_AFTER) };
    },
    storeStats: () => ({
      sessions: 3,
      turns: 5006,
      blobs: 18_342,
      bytes: 734_003_200,
      dataDir: '/home/dev/.local/state/turnback/app-3f9a0c21b7de',
    }),
    preview: async (turnId: string, opts?: { withChat?: boolean }) => plan(turnId, opts?.withChat),
    rollback: async (turnId: string) => result(turnId),
    rollbackWithChat: async (turnId: string) => ({ ...result(turnId), deletedMessages: 3 }),
    previewRewind: async (_sessionId: string, opts: { toTurnId: string; withChat?: boolean }) =>
      plan(opts.toTurnId, opts.withChat),
    rewind: async (_sessionId: string, opts: { toTurnId: string }) => result(opts.toTurnId),
    clearSession: noop,
    on: (event: string, listener: (data: unknown) => void) => {
      events.on(event, listener);
      return () => events.off(event, listener);
    },
    off: (event: string, listener: (data: unknown) => void) => {
      events.off(event, listener);
    },
    close: async () => {},
  };
  return engine as unknown as Engine;
}
