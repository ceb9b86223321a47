import type { FileChange, Message, Plan, RollbackResult, Session, Turn } from '../../server/protocol';

export function session(overrides: Partial<Session> = {}): Session {
  return {
    sessionId: 's1',
    platform: 'webui',
    sessionType: 'chat',
    title: 'Turn number 1',
    turnCount: 3,
    lastActivity: new Date().toISOString(),
    activeTurnId: null,
    origin: 'person',
    ...overrides,
  };
}

export function turn(number: number, overrides: Partial<Turn> = {}): Turn {
  return {
    turnId: `t${number}`,
    sessionId: 's1',
    number,
    kind: 'agent',
    title: `Turn number ${number}`,
    status: 'committed',
    interrupted: false,
    startedAt: new Date(Date.UTC(2026, 0, 1, 12, 0, number % 60)).toISOString(),
    endedAt: new Date(Date.UTC(2026, 0, 1, 12, 1, number % 60)).toISOString(),
    fileCount: 1,
    skippedCount: 0,
    execUsed: false,
    execCaptured: false,
    execCommands: [],
    preview: [],
    messageCount: 1,
    lines: { added: 0, removed: 0 },
    ...overrides,
  };
}

export const fileState = (size: number) => ({ type: 'file' as const, hash: 'a'.repeat(64), size, mode: 0o644 });

export function fileChange(uri: string, overrides: Partial<FileChange> = {}): FileChange {
  return {
    uri,
    change: 'modified',
    before: fileState(100),
    after: fileState(120),
    lines: { added: 3, removed: 1 },
    ...overrides,
  };
}

export function message(id: string, content: string, overrides: Partial<Message> = {}): Message {
  return { id, sessionId: 's1', turnId: 't1', role: 'user', content, ts: Date.UTC(2026, 0, 1, 12), ...overrides };
}

export function plan(overrides: Partial<Plan> = {}): Plan {
  return { turnId: 't1', actions: [], conflicts: [], unrestorable: [], messages: [], ...overrides };
}

export function result(overrides: Partial<RollbackResult> = {}): RollbackResult {
  return {
    ok: true,
    turnId: 't1',
    rollbackTurnId: 't9',
    restored: [],
    deleted: [],
    movedBack: [],
    unchanged: [],
    errors: [],
    ...overrides,
  };
}
