// The wire types of docs/api.md: used by the engine, the HTTP server and the console.
// Types, and the few constants of the contract every layer checks against (roles, ops,
// event names, the session-id pattern, the title limit): no imports, so the console may
// take them at run time without pulling in any server code.
// Fields may be added; none may be renamed or removed (docs/api.md is the contract).

/** A `sessionId`: 1-200 characters of `[A-Za-z0-9._:@-]`. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9._:@-]{1,200}$/;
/** A turn's title holds at most this many code points. */
export const TITLE_LIMIT = 120;
/** Roles an agent may append (`user` comes with `input`). */
export const AGENT_ROLES = ['assistant', 'tool', 'system'] as const;
/** Ops a host performs through storage or announces with `before-mutate`. */
export const MUTATION_OPS = ['write', 'delete', 'rename', 'move', 'mkdir'] as const;
/** The binary images a diff side carries as `Side.image` (SVG is text, so it needs no bytes). */
export const IMAGE_TYPES: Readonly<Record<string, string>> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

/** The image type of a path, by its extension; undefined when it is not one of IMAGE_TYPES. */
export function imageTypeOf(uri: string): string | undefined {
  const dot = uri.lastIndexOf('.');
  return dot < 0 ? undefined : IMAGE_TYPES[uri.slice(dot + 1).toLowerCase()];
}
/** The names of `GET /api/events`. */
export const EVENT_NAMES = [
  'turn-begun', 'captured', 'turn-committed', 'rollback-done', 'messages-deleted', 'messages-restored', 'session-deleted',
] as const;

/** `<root>:/<posix path>`, canonical (see docs/api.md "Storage URIs"). */
export type Uri = string;
export type Iso = string;

export type RootKind = 'workspace' | 'custom' | 'data' | 'pluginData' | 'logs' | 'tmp';

export type State =
  | null
  | { type: 'file'; hash: string; size: number; mode: number }
  | { type: 'dir'; mode: number }
  | { type: 'symlink'; target: string };

export type SkipReason = 'too-large' | 'excluded' | 'unreadable';
/** What an exec scan could not capture: a path's skip reason, or `concurrent` (another session's command ran at the same time). */
export type ExecSkipReason = SkipReason | 'concurrent';
export interface ExecSkipped { uri: Uri; reason: ExecSkipReason }

export interface Session {
  sessionId: string;
  platform: string;
  sessionType: string;
  /** The first turn's title, "" if none. */
  title: string;
  turnCount: number;
  lastActivity: Iso;
  activeTurnId: string | null;
}

export type TurnKind = 'agent' | 'rollback';
export type TurnStatus = 'active' | 'committed' | 'rolled-back' | 'partially-rolled-back';

export interface ExecCommand {
  execId: string;
  tool: string;
  command: string;
  at: Iso;
  /** When its after scan ran; null while the command is still open. */
  endedAt: Iso | null;
  /** Paths the command changed (its after scan); null while it is open. */
  changed: Uri[] | null;
  /** What the scans could not capture for this command. */
  skipped?: ExecSkipped[];
}

export interface LineCounts { added: number; removed: number }

export interface Turn {
  turnId: string;
  sessionId: string;
  /** 1, 2, 3… per session id, never reused. */
  number: number;
  kind: TurnKind;
  rollbackOf?: string[];
  /** First non-blank line of the user message, at most 120 characters (code points). */
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
  /** Every command was scanned before and after, and nothing was skipped. */
  execCaptured: boolean;
  execCommands: ExecCommand[];
  /** At most 5 URIs. */
  preview: Uri[];
  messageCount: number;
  /** Lines added and removed, summed over its text files. */
  lines: LineCounts;
  /** Renames and moves among its files: each joins two of `fileCount`'s paths (its origin and where it went). */
  renameCount?: number;
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
  lines?: LineCounts;
}

export type EntryOp = MutationOp | 'exec';
/** The ops a host announces or performs through storage (`exec` entries come from scans only). */
export type MutationOp = (typeof MUTATION_OPS)[number];

export interface Entry {
  seq: number;
  op: EntryOp;
  uri: Uri;
  to?: Uri;
  /** For `op: "exec"`: the command whose scans recorded it. */
  execId?: string;
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
  /** A PNG, JPEG, GIF or WebP side of at most 1 MiB: its bytes, for an image diff (`data:` URL). */
  image?: { type: string; base64: string };
}

export interface Diff {
  uri: Uri;
  from?: Uri;
  before: Side;
  after: Side;
}

export type PlanActionKind = 'restore' | 'delete' | 'move-back' | 'none';

/** The later turn whose change a conflict would discard (the path holds what it left). */
export interface ConflictTurn { turnId: string; sessionId: string; number: number; title: string }

export interface PlanAction {
  uri: Uri;
  action: PlanActionKind;
  from?: Uri;
  conflict: boolean;
  /** On a conflict: the later turn that made the path what it is now; absent when it was changed outside any turn. */
  conflictTurn?: ConflictTurn;
}

/** A folder the rollback creates or removes, including those it removes only because a chosen path created them. */
export interface PlanFolder { uri: Uri; action: 'create' | 'remove'; implied: boolean }

export type RestoreErrorCode = 'TOO_LARGE' | 'EXCLUDED' | 'UNRESTORABLE' | 'SYMLINK' | 'NOT_EMPTY' | 'IO';

export interface Plan {
  turnId: string;
  actions: PlanAction[];
  conflicts: Uri[];
  unrestorable: { uri: Uri; code: RestoreErrorCode }[];
  messages: Message[];
  /** Every folder the rollback creates or removes (a folder is removed only when it holds nothing else). */
  folders?: PlanFolder[];
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

export type Role = 'user' | (typeof AGENT_ROLES)[number];

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
  retention: { keepDays: number; keepSessions: number };
  /** Sessions pruned by retention since this server started. */
  pruned: number;
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
  | 'TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'NO_SPACE'
  | 'WORKSPACE_NOT_FOUND'
  | 'WORKSPACE_REQUIRED'
  | 'WORKSPACE_REFUSED'
  | 'WORKSPACE_NOT_RECORDING'
  | 'INTERNAL';

export interface ErrorBody {
  error: { code: ErrorCode; message: string; conflicts?: Uri[]; [detail: string]: unknown };
}

// ---- request bodies and answers ----

export interface HealthResponse { ok: true; version: string }
export interface SessionsResponse {
  sessions: Session[];
  /** With `?turns=<limit>`: the newest session's first page of turns (as `GET …/turns?limit=`), oldest first. */
  firstTurns?: { sessionId: string; turns: Turn[] };
}
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
export interface AgentExecResponse { turnId: string | null; execId: string | null }
export interface AgentExecEndRequest { sessionId: string; execId: string }
export interface AgentExecEndResponse { turnId: string | null; changed: Uri[]; skipped: ExecSkipped[] }
export interface AgentBeforeMutateRequest { sessionId: string; op: MutationOp; uri: Uri; to?: Uri }
export interface AgentBeforeMutateResponse { recorded: boolean; skipped?: 'too-large' }
/** `force`: run a change whose original cannot be captured (it is recorded as skipped). */
export interface AgentWriteRequest { sessionId: string; uri: Uri; content: string; encoding?: 'utf8' | 'base64'; force?: boolean }
export interface AgentDeleteRequest { sessionId: string; uri: Uri; recursive?: boolean; force?: boolean }
export interface AgentRenameRequest { sessionId: string; from: Uri; to: Uri; force?: boolean }
export type AgentMoveRequest = AgentRenameRequest;
export interface AgentMkdirRequest { sessionId: string; uri: Uri }
export interface AgentReadResponse { uri: Uri; content: string; encoding: 'utf8' | 'base64'; size: number }
/** POST /api/agent/hook/claude-code: the body is the raw Claude Code hook event (its own JSON shape). */
export type AgentClaudeCodeHookRequest = Record<string, unknown>;
/** A workspace of the service (docs/api.md "Workspaces"). */
export interface Workspace {
  /** `<folder name>-<first 12 hex of sha256(real path)>`, also its data dir's name. */
  id: string;
  root: string;
  name: string;
  /** False when its store cannot be opened or written (damaged, disk full, locked): `reason` says why. */
  recording: boolean;
  reason?: string;
  /** Its engine is open now (opened on first use, closed when idle). */
  open: boolean;
  sessions: number;
  storeBytes: number;
  isDefault: boolean;
}
export interface WorkspacesResponse { workspaces: Workspace[] }
export interface WorkspaceResponse { workspace: Workspace }

export interface AgentClaudeCodeHookResponse {
  ok: true;
  /** `not-recorded`: the event's workspace cannot record (refused, store damaged, disk full): `ignored` says why. */
  outcome: 'forwarded' | 'ignored' | 'outside-workspace' | 'not-recorded';
  /** With `not-recorded`, the first time for a session and reason: what the hook shows the person. */
  systemMessage?: string;
  /** How many agent calls the event mapped to (forwarded). */
  calls?: number;
  /** Why nothing was done (ignored, outside-workspace). */
  ignored?: string;
}

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
export type EventName = (typeof EVENT_NAMES)[number];
// Every name has its data shape, and every shape its name.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const eventNamesMatchMap: Same<EventName, keyof EventMap> = true;
void eventNamesMatchMap;
