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
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** The image type of a path, by its extension; undefined when it is not one of IMAGE_TYPES. */
export function imageTypeOf(uri: string): string | undefined {
  const dot = uri.lastIndexOf('.');
  return dot < 0 ? undefined : IMAGE_TYPES[uri.slice(dot + 1).toLowerCase()];
}
/** The names of `GET /api/events`. */
export const EVENT_NAMES = [
  'turn-begun',
  'captured',
  'turn-committed',
  'rollback-done',
  'messages-deleted',
  'messages-restored',
  'session-deleted',
] as const;

/** `<root>:/<posix path>`, canonical (see docs/api.md "Storage URIs"). */
export type Uri = string;
export type Iso = string;

export type RootKind = 'workspace' | 'custom' | 'data' | 'pluginData' | 'logs' | 'tmp';

export type State =
  | null
  | { type: 'file'; hash: string; size: number; mode: number }
  | { type: 'dir'; mode: number }
  | { type: 'symlink'; target: string }
  /** A FIFO, socket or device: never opened or read, no content kept. */
  | { type: 'special'; kind: SpecialKind; mode: number };

export type SpecialKind = 'fifo' | 'socket' | 'char' | 'block';

/** `budget`: a content larger on its own than the store budget set for the workspace (docs/api.md "Store budget"). */
/**
 * A store's budget (docs/api.md "Store budget"): its size in bytes, what the contents take as
 * stored, the sessions pruned to stay within it since the server started, and where the size
 * comes from: the workspace's own setting, the service's `--store-budget`, or the default.
 */
export interface StoreBudget {
  bytes: number;
  used: number;
  prunedForBudget: number;
  /** Sessions of this workspace pruned for the person's budget over all their workspaces (not for this one's). */
  prunedForPersonBudget?: number;
  source: 'workspace' | 'service' | 'default';
}
/**
 * `GET /api/settings/person-budget`, and the answer of its POST: the person's budget over all the
 * service's workspaces (null: none), where it comes from (`setting`: `turnback budget --person` or
 * the console, kept in the state dir; `service`: `--person-budget`; `none`), the contents kept over
 * the workspaces as last known, how many workspaces, and the sessions pruned for it since the start.
 */
export interface PersonBudget {
  bytes: number | null;
  source: 'setting' | 'service' | 'none';
  used: number;
  workspaces: number;
  prunedForPersonBudget: number;
}
/** POST /api/settings/person-budget: `bytes` null clears the setting (back to `--person-budget`, else none). */
export interface SetPersonBudgetRequest {
  bytes: number | null;
}
/** POST /api/budget (per workspace: /api/workspaces/:id/budget): `bytes` null clears the workspace's own budget. */
export interface SetBudgetRequest {
  bytes: number | null;
}
export interface SetBudgetResponse {
  budget: StoreBudget;
}

export type SkipReason = 'too-large' | 'excluded' | 'unreadable' | 'budget';
/** What an exec scan could not capture: a path's skip reason, or `concurrent` (another session's command ran at the same time). */
/** `over-budget`: a git-ignored folder too large to protect, left out of the scans (`files`, `bytes`: where the count stopped). */
export type ExecSkipReason = SkipReason | 'concurrent' | 'over-budget';
export interface ExecSkipped {
  uri: Uri;
  reason: ExecSkipReason;
  files?: number;
  bytes?: number;
}

/**
 * Who a session belongs to, for retention: `agent` when the agent token opened it, `person`
 * otherwise (the console token, a library call) or once a person acted in it (a rollback).
 */
export type SessionOrigin = 'person' | 'agent';

export interface Session {
  sessionId: string;
  platform: string;
  sessionType: string;
  /** The first turn's title, "" if none. */
  title: string;
  turnCount: number;
  lastActivity: Iso;
  activeTurnId: string | null;
  origin: SessionOrigin;
}

/** `pin`: a named point the person marked (no changes; its title is the name). */
export type TurnKind = 'agent' | 'rollback' | 'pin';

/** A named point: rewinding its session to it takes every path changed since (any session) back to its state then. */
export interface Pin {
  turnId: string;
  sessionId: string;
  number: number;
  name: string;
  at: string;
}
export interface PinsResponse {
  pins: Pin[];
}
export interface PinResponse {
  pin: Pin;
}
export type TurnStatus = 'active' | 'committed' | 'rolled-back' | 'partially-rolled-back';

/** A command's text is kept up to this many UTF-8 bytes (docs/api.md "Shell commands"). */
export const COMMAND_TEXT_LIMIT = 64 * 1024;
/** A listed command (a turn's `execCommands`) shows this many characters (code points) of its text. */
export const COMMAND_PREVIEW_LIMIT = 200;

export interface ExecCommand {
  execId: string;
  tool: string;
  /** In a turn, its first COMMAND_PREVIEW_LIMIT characters; from the command route, all that is kept (≤ COMMAND_TEXT_LIMIT bytes). */
  command: string;
  /** The UTF-8 size of the command as it was given. */
  commandBytes: number;
  /** `command` holds less than the whole command. */
  truncated?: true;
  at: Iso;
  /** When its after scan ran; null while the command is still open. */
  endedAt: Iso | null;
  /** Paths the command changed (its after scan); null while it is open. */
  changed: Uri[] | null;
  /** What the scans could not capture for this command. */
  skipped?: ExecSkipped[];
}

export interface LineCounts {
  added: number;
  removed: number;
}

/** A turn of another workspace made under the same prompt. */
export interface LinkedTurn {
  workspaceId: string;
  /** That workspace's real root. */
  root: string;
  turnId: string;
}

export interface Turn {
  turnId: string;
  sessionId: string;
  /** 1, 2, 3… per session id, never reused. */
  number: number;
  kind: TurnKind;
  rollbackOf?: string[];
  /** First non-blank line of the user message, at most 120 characters (code points). */
  title: string;
  /** A pin that retention keeps (with what it needs to be reached) until it is unpinned. */
  pinned?: boolean;
  status: TurnStatus;
  rolledBackBy?: string;
  /**
   * Turns of other sessions (a rollback, an undo from another agent's chat) that changed files
   * while this turn was active: what they changed may show in this turn's command scans too.
   */
  concurrent?: string[];
  /**
   * The same prompt's turns in other workspaces (a session that moved to another project, or a
   * file tool's edit there): undone and redone with this one unless `onlyHere` (docs/api.md, linked turns).
   */
  linked?: LinkedTurn[];
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
  'created' | 'modified' | 'deleted' | 'renamed' | 'moved' | 'dir-created' | 'dir-deleted' | 'mode-changed';

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
  /** The host's step (tool call) the entry was recorded for, when the host named one. */
  stepId?: string;
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

/** `keep-both`: a conflicting file left as it is, the restored version written beside it (`copy`). */
/**
 * A step of a turn: one tool call or one shell command. A host names the step an fs call or a
 * before-mutate belongs to (`stepId`, its tool call id, with the chat's tool line as `stepTitle`);
 * a command's entries are its step (its `execId`).
 */
export interface StepRef {
  id: string;
  title?: string;
}

export interface Step {
  /** 1, 2, 3… in the order the steps first changed something. */
  index: number;
  stepId: string;
  kind: 'command' | 'tool';
  /** The chat's tool line (`Bash(rm -rf build)`, `Edit(src/app.ts)`), or one made from the change. */
  title: string;
  /** Every path the step changed (both ends of a rename or move). */
  paths: Uri[];
}

export interface StepsResponse {
  steps: Step[];
}

/** On a step's conflict: the later step of the same turn that changed the path since. */
export interface ConflictStep {
  index: number;
  title: string;
}

/** Each path whose state differs between the end of turn `from` and the end of turn `to`. */
export interface Comparison {
  from: string;
  to: string;
  files: { uri: Uri; change: ChangeKind; before: State; after: State }[];
}

export type PlanActionKind = 'restore' | 'delete' | 'move-back' | 'none' | 'keep-both';

/** What a rollback does with a path a later turn or the person changed: refuse (409 unless force), or keep both versions. */
export type OnConflict = 'refuse' | 'keep-both';

/** The later turn whose change a conflict would discard (the path holds what it left). */
export interface ConflictTurn {
  turnId: string;
  sessionId: string;
  number: number;
  title: string;
}

export interface PlanAction {
  uri: Uri;
  action: PlanActionKind;
  from?: Uri;
  conflict: boolean;
  /** On a conflict: the later turn that made the path what it is now; absent when it was changed outside any turn. */
  conflictTurn?: ConflictTurn;
  /** On a conflict of a step's rollback: the later step of the same turn that changed the path. */
  conflictStep?: ConflictStep;
  /** With `keep-both`: where the restored version goes, beside the path (`<name>.turnback-<turn number>`). */
  copy?: Uri;
}

/** A folder the rollback creates or removes, including those it removes only because a chosen path created them. */
export interface PlanFolder {
  uri: Uri;
  action: 'create' | 'remove';
  implied: boolean;
}

export type RestoreErrorCode = 'TOO_LARGE' | 'EXCLUDED' | 'UNRESTORABLE' | 'SYMLINK' | 'NOT_EMPTY' | 'CHANGED' | 'IO';

export interface Plan {
  turnId: string;
  actions: PlanAction[];
  conflicts: Uri[];
  unrestorable: { uri: Uri; code: RestoreErrorCode }[];
  messages: Message[];
  /** Every folder the rollback creates or removes (a folder is removed only when it holds nothing else). */
  folders?: PlanFolder[];
  /** The linked turns' plans in their own workspaces (Turn.linked), undone with this one unless `onlyHere`. */
  linked?: (LinkedTurn & { plan: Plan })[];
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
  /** With `onConflict: "keep-both"`: each conflicting file left as it was, and the copy the restored version went to. */
  keptBoth?: { uri: Uri; copy: Uri }[];
  /** FIFOs, sockets or devices that stood where an original belongs: removed, and the original placed. */
  replaced?: { uri: Uri; kind: SpecialKind }[];
  /** Nothing on disk, in the chat or in a turn's status was changed: no rollback turn was made (`rollbackTurnId` null). */
  changedNothing?: true;
  /**
   * The linked turns undone with this one, each in its own workspace (docs/api.md, linked
   * turns): its `result`, or the `error` that stopped it after this workspace was undone.
   */
  linked?: (LinkedTurn & { result?: RollbackResult; error?: { code: string; message: string } })[];
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
  /**
   * The store budget (`--store-budget`): its size in bytes, what the contents take as stored, and
   * the sessions pruned to stay within it since this server started.
   */
  budget: StoreBudget;
  /** Git-ignored folders the latest scan left out over their budget: not protected. */
  unprotected: { uri: Uri; files: number; bytes: number }[];
  /** The workspace index and its background build. */
  index: IndexBuildStatus;
  /** Whether a command's scans follow the filesystem watcher. */
  watcher: WatcherStatus;
}

/**
 * The workspace index (what a command's before scan compares the disk with) and its build in the
 * background. `whole`: a command's scans read only what changed. `building`: a command's before
 * scan waits for the build. `partial`: no build is running and the index is not whole (a build
 * cut short by a stop, resumed by the next one). `failed`: `reason` says why; the first command
 * then runs a full before scan.
 */
export interface IndexBuildStatus {
  state: 'building' | 'whole' | 'partial' | 'failed';
  /** Files (not folders) the build's count found so far: the total the percentage is of, an estimate. */
  filesFound: number;
  /** Files the build's scan has brought into the index (their contents stored). */
  filesIndexed: number;
  /** Bytes of content the build read and stored. */
  bytesStored: number;
  /** filesIndexed of filesFound, 0–99 while building; 100 when whole. */
  percent: number;
  /** The build resumed an index a stopped build left part-way (what it held is not read again). */
  resumed?: boolean;
  /** ISO times of the latest build's start and end, and its duration. */
  startedAt?: string;
  finishedAt?: string;
  durationMs?: number;
  /** With `failed`: why (an unreadable root, a full disk). */
  reason?: string;
}

/**
 * Whether a command's scans follow the filesystem watcher. `watching`: they read only the paths
 * it named (a turn's start and end are still full scans); checked against the kernel's watches
 * when asked. `degraded`: part of the tree is not watched now (a root gone, a watch the kernel
 * dropped), `reason` says which; the next command is scanned in full and the place watched
 * afresh. `none`: no watcher was asked for (a server around one engine, or not Linux): every
 * scan walks the tree. `unavailable`: it was asked for but cannot be relied on (the inotify
 * watch limit, an error): every command is scanned in full until the engine is opened again,
 * and `reason` says why.
 */
export interface WatcherStatus {
  state: 'watching' | 'degraded' | 'none' | 'unavailable';
  reason?: string;
  /**
   * Watcher misses since the engine opened: changes a full scan (turn start, turn end, a
   * capture's catch-up) found that the watcher should have named. Each is logged with its path
   * and its folder watched afresh. Absent with `none`.
   */
  misses?: number;
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
  | 'COMMAND_NOT_FOUND'
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
  | 'WORKSPACE_LIMIT'
  | 'INTERNAL';

export interface ErrorBody {
  error: { code: ErrorCode; message: string; conflicts?: Uri[]; [detail: string]: unknown };
}

// ---- request bodies and answers ----

export interface HealthResponse {
  ok: true;
  version: string;
}
/** `GET /api/hello?nonce=N` (no token): the service's proof that it holds the console token (docs/api.md "Security"). */
export interface HelloResponse {
  /** HMAC-SHA256(console token, `turnback-server|<port>|<nonce>`), base64url. */
  proof: string;
  /** This run's random salt: the session key is HMAC-SHA256(console token, `turnback-session|<port>|<salt>`). */
  salt: string;
  /** HMAC-SHA256(session key, `turnback-server|<port>|<nonce>`): the proof for a tab that kept only its session key. */
  sessionProof: string;
}
export interface SessionsResponse {
  sessions: Session[];
  /** With `?turns=<limit>`: the newest session's first page of turns (as `GET …/turns?limit=`), oldest first. */
  firstTurns?: { sessionId: string; turns: Turn[] };
}
export interface TurnsResponse {
  turns: Turn[];
}
export interface MessagesResponse {
  messages: Message[];
}
export type ManifestResponse = Manifest;
export interface CommandResponse {
  command: ExecCommand;
}
export type DiffResponse = Diff;
/** `GET /api/turns/:turnId/diffs?uri=U&uri=V…`: those paths' diffs, in the order asked. */
export interface DiffsResponse {
  diffs: Diff[];
}
/** Paths one `GET /api/turns/:turnId/diffs` answers at most. */
export const DIFFS_PER_REQUEST = 100;

export interface PreviewRequest {
  /** The plan of this workspace's turn alone, without its linked turns'. */
  onlyHere?: boolean;
  uris?: Uri[];
  steps?: number[];
  withChat?: boolean;
  onConflict?: OnConflict;
}
export interface RollbackRequest {
  uris?: Uri[];
  steps?: number[];
  force?: boolean;
  onConflict?: OnConflict;
  /** An undo from the agent's chat: the session's active turn asking; the rollback is recorded in it as a step. */
  inTurn?: string;
  /** Undo this workspace's turn alone, not its linked turns (Turn.linked). */
  onlyHere?: boolean;
  /** That step: the asking tool call's id and chat line. */
  stepId?: string;
  stepTitle?: string;
}
export interface RollbackWithChatRequest {
  force?: boolean;
  onConflict?: OnConflict;
}
export interface RewindPreviewRequest {
  toTurnId: string;
  withChat?: boolean;
  onConflict?: OnConflict;
}
export interface RewindRequest {
  toTurnId: string;
  withChat?: boolean;
  force?: boolean;
  onConflict?: OnConflict;
}
export interface OkResponse {
  ok: true;
}

export interface AgentInputRequest {
  sessionId: string;
  platform: string;
  sessionType: string;
  content: string;
}
export interface AgentInputResponse {
  turnId: string | null;
  messageId: string;
}
export interface AgentMessageRequest {
  sessionId: string;
  role: Exclude<Role, 'user'>;
  content: string;
}
export interface AgentMessageResponse {
  messageId: string;
}
export interface AgentTurnEndRequest {
  sessionId: string;
}
export interface AgentTurnEndResponse {
  turnId: string | null;
}
export interface AgentExecRequest {
  sessionId: string;
  tool: string;
  command: string;
}
export interface AgentExecResponse {
  turnId: string | null;
  execId: string | null;
}
export interface AgentExecEndRequest {
  sessionId: string;
  execId: string;
}
export interface AgentExecEndResponse {
  turnId: string | null;
  changed: Uri[];
  skipped: ExecSkipped[];
}
/**
 * An exec-end whose start never reached turnback (engine `execUnseen`): `recorded`, what changed
 * since the turn's last scan is a command of tool `gap` (`execId`); `unchanged`, nothing did;
 * `open`, a command of the turn still open takes it at its after scan; `not-recorded`, the
 * turn's last scan cannot be told from the person's edits (`reason`), so nothing is attributed.
 */
export type ExecUnseenOutcome = 'recorded' | 'unchanged' | 'open' | 'not-recorded';
/** `no-start-scan`: no scan of the turn's own yet (no watcher, no command ended); `index-moved`: another scan moved the index since; `index-partial`: a scan was cut short. */
export type ExecUnseenReason = 'no-start-scan' | 'index-moved' | 'index-partial';
export interface AgentExecUnseenResponse {
  /** Null: the session has no turn in progress (nothing is done). */
  turnId: string | null;
  outcome: ExecUnseenOutcome;
  execId?: string;
  changed: Uri[];
  skipped: ExecSkipped[];
  reason?: ExecUnseenReason;
}
export interface AgentBeforeMutateRequest {
  sessionId: string;
  op: MutationOp;
  uri: Uri;
  to?: Uri;
}
export interface AgentBeforeMutateResponse {
  recorded: boolean;
  skipped?: 'too-large' | 'budget';
}
/** `force`: run a change whose original cannot be captured (it is recorded as skipped). */
export interface AgentWriteRequest {
  sessionId: string;
  uri: Uri;
  content: string;
  encoding?: 'utf8' | 'base64';
  force?: boolean;
}
export interface AgentDeleteRequest {
  sessionId: string;
  uri: Uri;
  recursive?: boolean;
  force?: boolean;
}
export interface AgentRenameRequest {
  sessionId: string;
  from: Uri;
  to: Uri;
  force?: boolean;
}
export type AgentMoveRequest = AgentRenameRequest;
export interface AgentMkdirRequest {
  sessionId: string;
  uri: Uri;
}
export interface AgentReadResponse {
  uri: Uri;
  content: string;
  encoding: 'utf8' | 'base64';
  size: number;
}
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
  /** The sessions in its store, open or not (a closed one's read from the store). */
  sessions: number;
  storeBytes: number;
  isDefault: boolean;
  /** Its index build, while its engine is open or once one was built; absent when never opened by this service. */
  index?: IndexBuildStatus;
  /** While its engine is open: whether a command's scans follow the filesystem watcher. */
  watcher?: WatcherStatus;
  /** While its engine is open: its store budget, as in `GET /api/store`. */
  budget?: StoreBudget;
}
export interface WorkspacesResponse {
  workspaces: Workspace[];
}
export interface WorkspaceResponse {
  workspace: Workspace;
}
/** DELETE /api/workspaces/:workspaceId: the workspace as it was, and whether its store went too. */
export interface ForgetWorkspaceResponse {
  ok: true;
  workspace: Workspace;
  storeDeleted: boolean;
}

/** POST /api/agent/hook/:host (`claude-code`, `cursor`, …): the body is the host's raw hook event (its own JSON shape). */
export type AgentHookRequest = Record<string, unknown>;
export interface AgentHookResponse {
  ok: true;
  /** `not-recorded`: the event's workspace cannot record (refused, store damaged, disk full): `ignored` says why. */
  outcome: 'forwarded' | 'ignored' | 'outside-workspace' | 'not-recorded';
  /**
   * What the hook shows the person: with `not-recorded`, the first time for a session and reason;
   * with `forwarded`, once after sessions were pruned for the store budget (never beside `agentNotice`).
   */
  systemMessage?: string;
  /** How many agent calls the event mapped to (forwarded). */
  calls?: number;
  /** Why nothing was done (ignored, outside-workspace). */
  ignored?: string;
  /** A prompt's answer, when the person took back work of the session since its last prompt: the paragraph for the agent. */
  agentNotice?: string;
  /**
   * With `agentNotice`, for a host that has a channel for it: what its hook prints on stdout, as one
   * JSON line (Claude Code's `hookSpecificOutput.additionalContext`, …). Always the last field.
   */
  hookOutput?: Record<string, unknown>;
}
/** GET/POST /api/settings/agent-notices: whether agents are told what the person undid (agent-notices.json). */
export interface AgentNoticeSettingsResponse {
  tellAgents: boolean;
  /** The hosts `turnback init <host> --quiet-agent` turned it off for. */
  quietHosts: string[];
}
/** The hook route of Claude Code, as it was named first. */
export type AgentClaudeCodeHookRequest = AgentHookRequest;
export type AgentClaudeCodeHookResponse = AgentHookResponse;

// ---- provenance: the turns behind each commit (git notes under refs/notes/turnback) ----

/** One agent turn in a commit's note: no file contents; `prompt` only when the person shares prompts. */
export interface NoteTurn {
  id: string;
  /** The session's platform (`claude-code`, `codex`, …). */
  host: string;
  session: string;
  /** When the turn began. */
  at: Iso;
  /** The turn's title (its prompt's first line), obvious secrets masked. */
  title: string;
  model?: string;
  /** Per committed path (repository-relative): the 1-based lines in the committed version the turn wrote, `1-3,7`. */
  files: Record<string, string>;
  /** Paths left out to keep the note small. */
  moreFiles?: number;
  lines: number;
  /** `sha256:<hex>` of the turn's full record (its manifest) on the machine that recorded it. */
  record: string;
  /** The prompt, obvious secrets masked, at most 1,000 characters (only with `share on --prompts`). */
  prompt?: string;
}
/** A commit's note. */
export interface CommitNote {
  turnback: 1;
  turns: NoteTurn[];
}
/** A note's turn as the console and `--json` show it: `local` when this machine's store holds the turn. */
export interface CommitTurn extends NoteTurn {
  local: boolean;
}
export interface CommitSummary {
  sha: string;
  subject: string;
  author: string;
  /** Committer time. */
  at: Iso;
  turns: CommitTurn[];
}
/** GET /api/workspaces/:id/commits: newest first; `next`: the `before` of the next page. */
export interface CommitsResponse {
  /** False when the workspace is in no git repository. */
  repository: boolean;
  commits: CommitSummary[];
  next: string | null;
}
export interface CommitResponse {
  commit: CommitSummary;
}
/**
 * One side of GET /api/commits/:sha/diff, read from git's objects: `text` for a blob of at most
 * 1 MiB that is not binary (a NUL in its first 8 KiB, or not UTF-8); a symlink's text is its target.
 */
export interface CommitFileSide {
  exists: boolean;
  /** `file`, `symlink` or `submodule` (a gitlink: no contents here) when it exists. */
  type?: 'file' | 'symlink' | 'submodule';
  binary: boolean;
  /** Over 1 MiB: its text is not sent. */
  tooLarge: boolean;
  size: number;
  text: string | null;
}
/** A commit's change to one path: the path in its first parent (`before`; absent for a root commit) and in it. */
export interface CommitFileDiffResponse {
  sha: string;
  parent: string | null;
  path: string;
  before: CommitFileSide;
  after: CommitFileSide;
}
/** One line of `turnback blame` (and GET /api/blame): its commit and turn, or null (the person's). */
export interface BlameLine {
  line: number;
  sha: string;
  turn: NoteTurn | null;
  text: string;
  /** No turn's ranges hold the line, but a turn of its commit wrote more files than its note lists (`moreFiles`): maybe that turn's, not known to be the person's. */
  unlisted?: true;
}
export interface BlameResponse {
  path: string;
  lines: BlameLine[];
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
