// The wire types of ../shared/API.md: used by the engine, the HTTP server and the console.
// Types only, so the console imports nothing from the server at run time.
// Fields may be added; none may be renamed or removed (API.md is the contract).

/** `<root>:/<posix path>`, canonical (see API.md "Storage URIs"). */
export type Uri = string;
export type Iso = string;

export type RootKind = 'workspace' | 'custom' | 'data' | 'pluginData' | 'logs' | 'tmp';

export type State =
  | null
  | { type: 'file'; hash: string; size: number; mode: number }
  | { type: 'dir'; mode: number }
  | { type: 'symlink'; target: string };

export type SkipReason = 'too-large' | 'excluded' | 'unreadable';

export interface Session {
  sessionId: string;
  platform: string;
  sessionType: string;
  turnCount: number;
  lastActivity: Iso;
  activeTurnId: string | null;
}

export type TurnKind = 'agent' | 'rollback';
export type TurnStatus = 'active' | 'committed' | 'rolled-back' | 'partially-rolled-back';

export interface ExecCommand {
  tool: string;
  command: string;
  at: Iso;
}

export interface Turn {
  turnId: string;
  sessionId: string;
  /** 1, 2, 3… per session id, never reused. */
  number: number;
  kind: TurnKind;
  rollbackOf?: string[];
  /** First line of the user message, at most 120 characters. */
  title: string;
  status: TurnStatus;
  rolledBackBy?: string;
  /** A crash cut it short. */
  interrupted: boolean;
  startedAt: Iso;
  endedAt: Iso | null;
  fileCount: number;
  skippedCount: number;
  execUsed: boolean;
  execCommands: ExecCommand[];
  /** At most 5 URIs. */
  preview: Uri[];
  messageCount: number;
}

export type ChangeKind =
  | 'created'
  | 'modified'
  | 'deleted'
  | 'renamed'
  | 'moved'
  | 'dir-created'
  | 'dir-deleted'
  | 'mode-changed';

export interface FileChange {
  uri: Uri;
  from?: Uri;
  change: ChangeKind;
  before: State;
  after: State;
  skipped?: SkipReason;
  lines?: { added: number; removed: number };
}

export type EntryOp = 'write' | 'delete' | 'rename' | 'move' | 'mkdir';

export interface Entry {
  seq: number;
  op: EntryOp;
  uri: Uri;
  to?: Uri;
  before: State;
  /** Of `uri`; read at commit, null while the turn is active. */
  after: State;
  toBefore?: State;
  toAfter?: State;
  skipped?: SkipReason;
}

export interface Manifest {
  turn: Turn;
  files: FileChange[];
  entries: Entry[];
}

export interface Side {
  exists: boolean;
  binary: boolean;
  tooLarge: boolean;
  truncated: boolean;
  size: number;
  /** null unless a text side. */
  text: string | null;
}

export interface Diff {
  uri: Uri;
  from?: Uri;
  before: Side;
  after: Side;
}

export type PlanActionKind = 'restore' | 'delete' | 'move-back' | 'none';

export interface PlanAction {
  uri: Uri;
  action: PlanActionKind;
  from?: Uri;
  conflict: boolean;
}

export type RestoreErrorCode = 'TOO_LARGE' | 'EXCLUDED' | 'UNRESTORABLE' | 'SYMLINK' | 'NOT_EMPTY' | 'IO';

export interface Plan {
  turnId: string;
  actions: PlanAction[];
  conflicts: Uri[];
  unrestorable: { uri: Uri; code: RestoreErrorCode }[];
  messages: Message[];
}

export interface RollbackResult {
  ok: boolean;
  turnId: string;
  rollbackTurnId: string | null;
  restored: Uri[];
  deleted: Uri[];
  movedBack: { from: Uri; to: Uri }[];
  unchanged: Uri[];
  errors: { uri: Uri; code: RestoreErrorCode; message: string; systemCode?: string }[];
  /** Only for rollback-with-chat and rewind with chat. */
  deletedMessages?: number;
}

export type Role = 'user' | 'assistant' | 'tool' | 'system';

export interface Message {
  id: string;
  sessionId: string;
  turnId: string | null;
  role: Role;
  content: string;
  /** Milliseconds since the epoch. */
  ts: number;
}

export interface StoreStats {
  sessions: number;
  turns: number;
  blobs: number;
  bytes: number;
  dataDir: string;
}

export type ErrorCode =
  | 'BAD_REQUEST'
  | 'BAD_URI'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'TURN_NOT_FOUND'
  | 'SESSION_NOT_FOUND'
  | 'FILE_NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'TURN_ACTIVE'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INTERNAL';

export interface ErrorBody {
  error: { code: ErrorCode; message: string; conflicts?: Uri[]; [detail: string]: unknown };
}

// ---- request bodies and answers ----

export interface HealthResponse { ok: true; version: string }
export interface SessionsResponse { sessions: Session[] }
export interface TurnsResponse { turns: Turn[] }
export interface MessagesResponse { messages: Message[] }
export type ManifestResponse = Manifest;
export type DiffResponse = Diff;

export interface PreviewRequest { uris?: Uri[]; withChat?: boolean }
export interface RollbackRequest { uris?: Uri[]; force?: boolean }
export interface RollbackWithChatRequest { force?: boolean }
export interface RewindPreviewRequest { toTurnId: string; withChat?: boolean }
export interface RewindRequest { toTurnId: string; withChat?: boolean; force?: boolean }
export interface OkResponse { ok: true }

export interface AgentInputRequest { sessionId: string; platform: string; sessionType: string; content: string }
export interface AgentInputResponse { turnId: string | null; messageId: string }
export interface AgentMessageRequest { sessionId: string; role: Exclude<Role, 'user'>; content: string }
export interface AgentMessageResponse { messageId: string }
export interface AgentTurnEndRequest { sessionId: string }
export interface AgentTurnEndResponse { turnId: string | null }
export interface AgentExecRequest { sessionId: string; tool: string; command: string }
export interface AgentExecResponse { turnId: string | null }
export interface AgentBeforeMutateRequest { sessionId: string; op: EntryOp; uri: Uri; to?: Uri }
export interface AgentBeforeMutateResponse { recorded: boolean }
export interface AgentWriteRequest { sessionId: string; uri: Uri; content: string; encoding?: 'utf8' | 'base64' }
export interface AgentDeleteRequest { sessionId: string; uri: Uri; recursive?: boolean }
export interface AgentRenameRequest { sessionId: string; from: Uri; to: Uri }
export type AgentMoveRequest = AgentRenameRequest;
export interface AgentMkdirRequest { sessionId: string; uri: Uri }
export interface AgentReadResponse { uri: Uri; content: string; encoding: 'utf8' | 'base64'; size: number }
/** POST /api/agent/hook/claude-code: the body is the raw Claude Code hook event (its own JSON shape). */
export type AgentClaudeCodeHookRequest = Record<string, unknown>;
export interface AgentClaudeCodeHookResponse { ok: true; outcome: 'forwarded' | 'ignored' | 'outside-workspace' }

// ---- events (GET /api/events and engine.on) ----

export interface EventMap {
  'turn-begun': { sessionId: string; turnId: string };
  captured: { sessionId: string; turnId: string; uri: Uri };
  'turn-committed': { sessionId: string; turnId: string };
  'rollback-done': { sessionId: string; turnId: string; rollbackTurnId: string | null; ok: boolean };
  'messages-deleted': { sessionId: string; messageIds: string[] };
  'messages-restored': { sessionId: string; messageIds: string[] };
  'session-deleted': { sessionId: string };
}
export type EventName = keyof EventMap;
