// A small in-memory stand-in for the engine: enough behaviour for the routes to be exercised
// without a store, and a call log to check what the routes passed on.
import { EventEmitter } from 'node:events';
import type { Engine, EngineEventMap, EngineEventName } from '../../engine/api.js';
import {
  CommandNotFoundError,
  ConflictError,
  FileNotFoundError,
  SessionNotFoundError,
  TurnActiveError,
  TurnNotFoundError,
} from '../../engine/errors.js';
import type { Manifest, Message, Plan, RollbackResult, Session, Turn } from '../../protocol.js';
import { parseUri } from '../../engine/paths/uri.js';

export interface FakeEngine extends Engine {
  calls: { method: string; args: unknown[] }[];
  files: Map<string, Uint8Array>;
  emit<K extends EngineEventName>(event: K, data: EngineEventMap[K]): void;
  /** Makes the next call of `method` throw `error`. */
  failNext(method: string, error: unknown): void;
}

export const SESSION: Session = {
  sessionId: 's1',
  platform: 'webui',
  sessionType: 'chat',
  title: 'Add a file',
  turnCount: 1,
  lastActivity: '2026-01-01T00:00:00.000Z',
  activeTurnId: null,
  origin: 'person',
};

export const TURN: Turn = {
  turnId: 't1',
  sessionId: 's1',
  number: 1,
  kind: 'agent',
  title: 'Add a file',
  status: 'committed',
  interrupted: false,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T00:00:01.000Z',
  fileCount: 1,
  skippedCount: 0,
  execUsed: false,
  execCaptured: false,
  execCommands: [],
  preview: ['workspace:/a.txt'],
  messageCount: 1,
  lines: { added: 1, removed: 0 },
};

const MESSAGE: Message = { id: 'm1', sessionId: 's1', turnId: 't1', role: 'user', content: 'Add a file', ts: 1 };

function plan(turnId: string): Plan {
  return {
    turnId,
    actions: [{ uri: 'workspace:/a.txt', action: 'delete', conflict: false }],
    conflicts: [],
    unrestorable: [],
    messages: [],
  };
}

function result(turnId: string): RollbackResult {
  return {
    ok: true,
    turnId,
    rollbackTurnId: 't2',
    restored: [],
    deleted: ['workspace:/a.txt'],
    movedBack: [],
    unchanged: [],
    errors: [],
  };
}

/** The engine's own URI grammar (not a copy of it): what the routes answer for a bad URI is what the engine would. */
function checkUri(uri: string): void {
  parseUri(uri);
}

const WHOLE_INDEX = { state: 'whole', filesFound: 1, filesIndexed: 1, bytesStored: 1, percent: 100 } as const;

export function createFakeEngine(): FakeEngine {
  const events = new EventEmitter();
  const calls: FakeEngine['calls'] = [];
  const failures = new Map<string, unknown>();
  const files = new Map<string, Uint8Array>();
  let activeTurn: string | null = null;

  const record = (method: string, ...args: unknown[]): void => {
    calls.push({ method, args });
    if (failures.has(method)) {
      const error = failures.get(method);
      failures.delete(method);
      throw error;
    }
  };
  const knownTurn = (turnId: string): void => {
    if (turnId !== 't1') throw new TurnNotFoundError(turnId);
  };
  const knownSession = (sessionId: string): void => {
    if (sessionId !== 's1') throw new SessionNotFoundError(sessionId);
  };
  const refuseWhileActive = (): void => {
    if (activeTurn) throw new TurnActiveError('s1');
  };

  const engine: FakeEngine = {
    dataDir: '/tmp/fake-data',
    workspace: '/tmp/fake-workspace',
    calls,
    files,
    emit: (event, data) => {
      events.emit(event, data);
    },
    failNext: (method, error) => {
      failures.set(method, error);
    },
    storage: {
      async writeFile(uri, data, opts) {
        record('writeFile', uri, data, opts);
        checkUri(uri);
        files.set(uri, typeof data === 'string' ? new TextEncoder().encode(data) : data);
      },
      async delete(uri, opts) {
        record('delete', uri, opts);
        checkUri(uri);
        files.delete(uri);
      },
      async rename(from, to, opts) {
        record('rename', from, to, opts);
        checkUri(from);
        checkUri(to);
      },
      async move(from, to, opts) {
        record('move', from, to, opts);
        checkUri(from);
        checkUri(to);
      },
      async mkdir(uri, opts) {
        record('mkdir', uri, opts);
        checkUri(uri);
      },
      async readFile(uri) {
        record('readFile', uri);
        checkUri(uri);
        const data = files.get(uri);
        if (!data) throw new FileNotFoundError(uri);
        return data;
      },
    },
    async input(req) {
      record('input', req);
      activeTurn = 't1';
      events.emit('turn-begun', { sessionId: req.sessionId, turnId: 't1' });
      return { turnId: 't1', messageId: 'm1' };
    },
    async message(req) {
      record('message', req);
      return { messageId: 'm2' };
    },
    async exec(req) {
      record('exec', req);
      return { turnId: activeTurn, execId: activeTurn ? 'x1' : null };
    },
    async execEnd(req) {
      record('execEnd', req);
      return { turnId: activeTurn, changed: [], skipped: [] };
    },
    async execUnseen(req) {
      record('execUnseen', req);
      return { turnId: activeTurn, outcome: 'unchanged', changed: [], skipped: [] };
    },
    async beforeMutate(req) {
      record('beforeMutate', req);
      checkUri(req.uri);
      return { recorded: activeTurn !== null };
    },
    linkTurn(turnId, link) {
      record('linkTurn', turnId, link);
    },
    async turnEnd(req) {
      record('turnEnd', req);
      const ended = activeTurn;
      activeTurn = null;
      if (ended) events.emit('turn-committed', { sessionId: req.sessionId, turnId: ended });
      return { turnId: ended };
    },
    listSessions() {
      record('listSessions');
      return [SESSION];
    },
    listTurns(sessionId, opts) {
      record('listTurns', sessionId, opts);
      knownSession(sessionId);
      return [TURN];
    },
    searchTurns(sessionId, text, opts) {
      record('searchTurns', sessionId, text, opts);
      knownSession(sessionId);
      return TURN.title.toLowerCase().includes(text.toLowerCase()) ? [TURN] : [];
    },
    getManifest(turnId) {
      record('getManifest', turnId);
      knownTurn(turnId);
      const manifest: Manifest = { turn: TURN, files: [], entries: [] };
      return manifest;
    },
    command(turnId, execId) {
      record('command', turnId, execId);
      knownTurn(turnId);
      const found = TURN.execCommands.find((c) => c.execId === execId);
      if (!found) throw new CommandNotFoundError(turnId, execId);
      return found;
    },
    async pin(opts) {
      record('pin', opts);
      return {
        turnId: 'p1',
        sessionId: 'turnback-pins',
        number: 1,
        name: opts?.name ?? 'Pinned',
        at: '2026-01-01T00:00:00.000Z',
      };
    },
    pins() {
      record('pins');
      return [];
    },
    async unpin(turnId) {
      record('unpin', turnId);
      knownTurn(turnId);
    },
    compare(from, to) {
      record('compare', from, to);
      knownTurn(from);
      knownTurn(to);
      return { from, to, files: [] };
    },
    async compareDiff(from, to, uri) {
      record('compareDiff', from, to, uri);
      knownTurn(from);
      throw new FileNotFoundError(uri);
    },
    steps(turnId) {
      record('steps', turnId);
      knownTurn(turnId);
      return [{ index: 1, stepId: 'x_1', kind: 'command', title: 'Bash(rm a.txt)', paths: ['workspace:/a.txt'] }];
    },
    messages(sessionId, opts) {
      record('messages', sessionId, opts);
      knownSession(sessionId);
      return [MESSAGE];
    },
    async diff(turnId, uri) {
      record('diff', turnId, uri);
      knownTurn(turnId);
      checkUri(uri);
      if (uri !== 'workspace:/a.txt') throw new FileNotFoundError(uri);
      const side = { exists: true, binary: false, tooLarge: false, truncated: false, size: 1, text: 'a' };
      return { uri, before: { ...side, exists: false, size: 0, text: null }, after: side };
    },
    async diffs(turnId, uris) {
      record('diffs', turnId, uris);
      const diffs = [];
      for (const uri of uris) diffs.push(await engine.diff(turnId, uri));
      return diffs;
    },
    storeStats() {
      record('storeStats');
      return {
        sessions: 1,
        turns: 1,
        blobs: 1,
        bytes: 1,
        dataDir: '/tmp/fake-data',
        retention: { keepDays: 30, keepSessions: 0 },
        pruned: 0,
        budget: { bytes: 2147483648, used: 0, prunedForBudget: 0, source: 'default' },
        unprotected: [],
        index: WHOLE_INDEX,
        watcher: { state: 'none' },
      };
    },
    takeBudgetNews() {
      return null;
    },
    personBudgetCandidate() {
      return null;
    },
    async pruneForPersonBudget() {
      return false;
    },
    setStoreBudget(bytes) {
      record('setStoreBudget', bytes);
      return {
        bytes: bytes ?? 2147483648,
        used: 0,
        prunedForBudget: 0,
        source: bytes === null ? 'default' : 'workspace',
      };
    },
    async buildIndex() {
      record('buildIndex');
      return WHOLE_INDEX;
    },
    indexStatus() {
      return WHOLE_INDEX;
    },
    watcherStatus() {
      return { state: 'none' };
    },
    async preview(turnId, opts) {
      record('preview', turnId, opts);
      knownTurn(turnId);
      return plan(turnId);
    },
    async rollback(turnId, opts) {
      record('rollback', turnId, opts);
      knownTurn(turnId);
      refuseWhileActive();
      if (files.has('workspace:/drift.txt') && !opts?.force) throw new ConflictError(['workspace:/drift.txt']);
      return result(turnId);
    },
    async rollbackWithChat(turnId, opts) {
      record('rollbackWithChat', turnId, opts);
      knownTurn(turnId);
      refuseWhileActive();
      return { ...result(turnId), deletedMessages: 1 };
    },
    async previewRewind(sessionId, opts) {
      record('previewRewind', sessionId, opts);
      knownSession(sessionId);
      knownTurn(opts.toTurnId);
      return plan(opts.toTurnId);
    },
    async rewind(sessionId, opts) {
      record('rewind', sessionId, opts);
      knownSession(sessionId);
      knownTurn(opts.toTurnId);
      refuseWhileActive();
      return result(opts.toTurnId);
    },
    async clearSession(sessionId) {
      record('clearSession', sessionId);
      knownSession(sessionId);
      events.emit('session-deleted', { sessionId });
    },
    on(event, listener) {
      events.on(event, listener as (data: unknown) => void);
      return () => events.off(event, listener as (data: unknown) => void);
    },
    off(event, listener) {
      events.off(event, listener as (data: unknown) => void);
    },
    async settled() {
      record('settled');
    },
    async close() {
      record('close');
    },
  };
  return engine;
}
