// The library API of docs/api.md ("Library API"): what `openEngine` returns.
// The HTTP routes are a thin mapping of these calls; hosts embed the engine through it.
import type {
  AgentBeforeMutateResponse,
  AgentExecEndResponse,
  AgentExecUnseenResponse,
  AgentExecResponse,
  AgentInputResponse,
  Diff,
  EventMap,
  EventName,
  ExecCommand,
  IndexBuildStatus,
  WatcherStatus,
  Manifest,
  Message,
  MutationOp,
  Comparison,
  OnConflict,
  Pin,
  Plan,
  Step,
  StepRef,
  Role,
  RollbackResult,
  RootKind,
  Session,
  SessionOrigin,
  StoreBudget,
  StoreStats,
  Turn,
  Uri,
} from '../protocol.js';

export interface RootSpec {
  /** Root name as it appears in URIs (`workspace`, `data`, …). */
  name: string;
  kind: RootKind;
  /** Absolute directory on disk. */
  path: string;
}

export interface EngineOptions {
  /** The workspace directory (root `workspace`). */
  workspace: string;
  /** Defaults to `${XDG_STATE_HOME:-~/.local/state}/turnback/<name>-<hash12>`. */
  dataDir?: string;
  /** Extra roots; `workspace`, `data` and `tmp` are always present. */
  roots?: RootSpec[];
  /** `platform:sessionType` patterns; `*` on either side; `[]` disables capture. Default `['webui:*']`. */
  scopes?: string[];
  /** Default 64 MiB. */
  maxFileSize?: number;
  /** Sessions idle longer than this many days are pruned; default 30, 0 keeps them forever. */
  keepDays?: number;
  /** At most this many sessions are kept (the most recently active); default 0 = no count limit. */
  keepSessions?: number;
  /** The store's budget in bytes; default the larger of 2 GiB and 10x the workspace's tracked size. */
  storeBudget?: number;
  /** Globs relative to a root; default `['.git/**', 'node_modules/**']`. */
  exclude?: string[];
  /**
   * A git-ignored folder (build or environment output) is protected while it holds at most this
   * many files and bytes; beyond, the scans leave it out and say so. Default 2,000 files and
   * 128 MiB; `null` protects every ignored folder whatever its size.
   */
  ignoredBudget?: { files: number; bytes: number } | null;
  /** Globs relative to a root of ignored folders protected whatever their size. */
  protect?: string[];
  /** Recursive-delete capture limits (docs/design.md point 4). */
  maxDeleteFiles?: number;
  maxDeleteBytes?: number;
}

/** `step`: the host's step (tool call) the change belongs to, so it can be undone on its own. */
export interface SessionRef {
  sessionId: string;
  step?: StepRef;
}
/** `force`: go ahead with a change whose original cannot be captured (recorded as skipped). */
export interface MutationOptions extends SessionRef {
  force?: boolean;
}

export interface Storage {
  writeFile(uri: Uri, data: string | Uint8Array, opts: MutationOptions): Promise<void>;
  delete(uri: Uri, opts: MutationOptions & { recursive?: boolean }): Promise<void>;
  rename(from: Uri, to: Uri, opts: MutationOptions): Promise<void>;
  move(from: Uri, to: Uri, opts: MutationOptions): Promise<void>;
  mkdir(uri: Uri, opts: SessionRef): Promise<void>;
  /** `maxBytes`: a larger file is TOO_LARGE, and is never read whole into memory. */
  readFile(uri: Uri, opts?: { maxBytes?: number }): Promise<Uint8Array>;
}

/** The events of the memory store: their engine names carry `memory:` (docs/api.md "Library API"). */
export type MemoryEventName = 'messages-deleted' | 'messages-restored';
type EngineNameOf<K extends EventName> = K extends MemoryEventName ? `memory:${K}` : K;

/** Engine event names: the SSE names of docs/api.md (protocol.ts `EVENT_NAMES`), `memory:` on the message events. */
export type EngineEventMap = { [K in EventName as EngineNameOf<K>]: EventMap[K] };
export type EngineEventName = keyof EngineEventMap;

/** What opening the store found after a crash (docs/design.md point 11). */
export interface RecoveryReport {
  /** Agent turns left active by a crash that go on: their session's next events are recorded in them (docs/api.md, crash recovery). */
  resumedTurns: string[];
  /** Turns left active by a crash, now committed and marked `interrupted` (rollback turns). */
  interruptedTurns: string[];
  /** Rollback turns cut short, with the turns they were rolling back: run the rollback again to complete it. */
  interruptedRollbacks: { rollbackTurnId: string; rollbackOf: string[] }[];
  removedTempFiles: number;
  /** Files a rollback was writing over in place when it stopped, written whole from the store. */
  finishedFiles: number;
}

export interface Engine {
  readonly dataDir: string;
  readonly workspace: string;
  readonly storage: Storage;
  /** Set by `openEngine`: what recovery did on open (optional so test doubles may omit it). */
  readonly recovery?: RecoveryReport;

  /** `origin`: who opens the session, for retention (default `person`; the server passes `agent` for the agent token). */
  input(req: {
    sessionId: string;
    platform: string;
    sessionType: string;
    content: string;
    origin?: SessionOrigin;
  }): Promise<AgentInputResponse>;
  /** `turnId`: a turn of the session, ended too (a host's chat that reached its log after the turn's end); default the active one. */
  message(req: {
    sessionId: string;
    role: Exclude<Role, 'user'>;
    content: string;
    origin?: SessionOrigin;
    turnId?: string;
  }): Promise<{ messageId: string }>;
  /** The before scan of a command the engine cannot see into. */
  exec(req: { sessionId: string; tool: string; command: string }): Promise<AgentExecResponse>;
  /** The after scan: what the command changed becomes `exec` entries. */
  execEnd(req: { sessionId: string; execId: string }): Promise<AgentExecEndResponse>;
  /** An end whose start never reached turnback: what changed since the turn's own last scan becomes a command of tool `gap`. */
  execUnseen(req: { sessionId: string; tool: string; command?: string }): Promise<AgentExecUnseenResponse>;
  beforeMutate(req: {
    sessionId: string;
    op: MutationOp;
    uri: Uri;
    to?: Uri;
    step?: StepRef;
  }): Promise<AgentBeforeMutateResponse>;
  turnEnd(req: { sessionId: string }): Promise<{ turnId: string | null }>;
  /** Notes that `turnId` and `link.turnId` of the workspace at `link.root` were made under one prompt (Turn.linked). */
  linkTurn(turnId: string, link: { root: string; turnId: string }): void;

  listSessions(): Session[];
  listTurns(sessionId: string, opts?: { limit?: number; before?: number }): Turn[];
  /** Turns whose prompt or a changed path holds `text` (any case), oldest first; paged like listTurns. */
  searchTurns(sessionId: string, text: string, opts?: { limit?: number; before?: number }): Turn[];
  getManifest(turnId: string): Manifest;
  /** One command of a turn with all of its text that is kept (a turn lists previews only). */
  command(turnId: string, execId: string): ExecCommand;
  messages(sessionId: string, opts?: { turnId?: string; limit?: number; before?: number }): Message[];
  diff(turnId: string, uri: Uri): Promise<Diff>;
  /** Several paths' diffs of one turn, in the order given, from one read of its changes. */
  diffs(turnId: string, uris: Uri[]): Promise<Diff[]>;
  storeStats(): StoreStats;
  /** Sets the workspace's own store budget in bytes, kept in its store (null: back to the service's or the default); prunes to it at once. */
  setStoreBudget(bytes: number | null): StoreBudget;
  /** Once after sessions were pruned for the store budget: the line a hook shows the person (then null until more are). */
  takeBudgetNews(): string | null;
  /**
   * The person's budget over all their workspaces (the service's): the session it would prune
   * first here, the least recently active one that is not being recorded, kept by a pin, nor
   * the most recent; null when none may go.
   */
  personBudgetCandidate(): { sessionId: string; lastActivity: number } | null;
  /** Prunes that session for the person's budget (counted in `budget.prunedForPersonBudget`; `why` ends the log line); false when the rules keep it now. */
  pruneForPersonBudget(sessionId: string, why: string): Promise<boolean>;
  /**
   * Builds the workspace index in the background unless it is whole (joins a build already
   * running); resolves with how it ended (`whole`, `failed` with its reason, `partial` when the
   * engine closed first), never rejects. A command's before scan meanwhile waits for it.
   */
  buildIndex(): Promise<IndexBuildStatus>;
  /** The index and its build now (also `storeStats().index`). */
  indexStatus(): IndexBuildStatus;
  /** Whether a command's scans follow the filesystem watcher now (also `storeStats().watcher`). */
  watcherStatus(): WatcherStatus;

  /** `onConflict: 'keep-both'`: a conflicting file stays as it is, the restored version goes beside it (keep-both.ts). */
  /** `steps`: indexes of the turn's steps (steps()) to undo alone; not with `uris` nor with chat. */
  preview(
    turnId: string,
    opts?: { uris?: Uri[]; withChat?: boolean; onConflict?: OnConflict; steps?: number[] },
  ): Promise<Plan>;
  /** `inTurn`: the session's active turn asking (an undo from the agent's chat), recorded in it as the step `step`. */
  rollback(
    turnId: string,
    opts?: {
      uris?: Uri[];
      force?: boolean;
      onConflict?: OnConflict;
      steps?: number[];
      inTurn?: string;
      step?: StepRef;
    },
  ): Promise<RollbackResult>;
  /** Each tool call or shell command of the turn that changed something, in order. */
  steps(turnId: string): Step[];
  /** A named point of the workspace's current state; rewind its session to it (`rewind`) to come back. Refused (TURN_ACTIVE) while an agent turn is being recorded. */
  pin(opts?: { name?: string }): Promise<Pin>;
  /** The pins retention keeps, oldest first. */
  pins(): Pin[];
  /** Gives a pin back to retention. */
  unpin(turnId: string): Promise<void>;
  /** Each path's state at the end of one turn against the end of another (any sessions of the workspace). */
  compare(fromTurnId: string, toTurnId: string): Comparison;
  compareDiff(fromTurnId: string, toTurnId: string, uri: Uri): Promise<Diff>;
  rollbackWithChat(turnId: string, opts?: { force?: boolean; onConflict?: OnConflict }): Promise<RollbackResult>;
  previewRewind(
    sessionId: string,
    opts: { toTurnId: string; withChat?: boolean; onConflict?: OnConflict },
  ): Promise<Plan>;
  rewind(
    sessionId: string,
    opts: { toTurnId: string; withChat?: boolean; force?: boolean; onConflict?: OnConflict },
  ): Promise<RollbackResult>;
  clearSession(sessionId: string): Promise<void>;

  on<K extends EngineEventName>(event: K, listener: (data: EngineEventMap[K]) => void): () => void;
  off<K extends EngineEventName>(event: K, listener: (data: EngineEventMap[K]) => void): void;

  /**
   * Resolves once the work a turn end leaves running in the background (writing captured
   * contents as fsynced blob files) is done. Nothing depends on it for safety: the contents are
   * committed before each change. For hosts, benchmarks and tests that must not overlap it.
   */
  settled(): Promise<void>;

  /** Commits every active turn, then closes storage and the database. */
  close(): Promise<void>;
}
