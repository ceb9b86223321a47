// The terminal's operations on a workspace, shared by the commands and the MCP tools: list, show,
// diff, and the undo family (which turn, its preview, the rollback). Each is a few service calls.
import type {
  Diff,
  FileChange,
  Manifest,
  OnConflict,
  Plan,
  RollbackResult,
  Session,
  State,
  Step,
  Turn,
} from '../../protocol.js';
import { refused, usageError } from './errors.js';
import { chooseSession, locateTurn, PINS_SESSION_ID, type Located } from './turn-ref.js';
import { unifiedDiff } from './unified-diff.js';
import type { WorkspaceClient } from './workspace.js';

export interface LoggedTurn {
  session: Session;
  turn: Turn;
}

/**
 * The workspace's newest turns (of one session, or of the agents' sessions), newest first. The
 * pins' session is `turnback pins`' to list: its turns numbered 1, 2… would repeat the agents' numbers.
 */
export async function recentTurns(ws: WorkspaceClient, limit: number, sessionFlag?: string): Promise<LoggedTurn[]> {
  const sessions =
    sessionFlag === undefined
      ? (await ws.sessions()).filter((session) => session.sessionId !== PINS_SESSION_ID)
      : [await chooseSession(ws, sessionFlag)];
  // Ids sort by creation time too, which orders two turns begun in the same millisecond.
  const newestFirst = (a: LoggedTurn, b: LoggedTurn) =>
    b.turn.startedAt.localeCompare(a.turn.startedAt) ||
    (a.turn.turnId < b.turn.turnId ? 1 : a.turn.turnId > b.turn.turnId ? -1 : 0);
  let kept: LoggedTurn[] = [];
  // Sessions come newest activity first, and no turn begins after its session's last activity:
  // once `limit` turns are newer than a session's last activity, it and the rest add nothing.
  for (const session of sessions) {
    if (kept.length >= limit && session.lastActivity < kept[limit - 1].turn.startedAt) break;
    for (const turn of await ws.turns(session.sessionId, limit)) kept.push({ session, turn });
    kept = kept.sort(newestFirst).slice(0, limit);
  }
  return kept;
}

export async function showTurn(
  ws: WorkspaceClient,
  ref: string,
  sessionFlag?: string,
): Promise<Located & { manifest: Manifest; steps: Step[] }> {
  const located = await locateTurn(ws, ref, sessionFlag);
  const [manifest, steps] = await Promise.all([ws.manifest(located.turn.turnId), ws.steps(located.turn.turnId)]);
  return { ...located, manifest, steps };
}

export interface FileDiff {
  diff: Diff;
  change: FileChange | undefined;
  patch: string;
}

/** The turn's diffs, of every file or of the chosen URIs (a folder's URI chooses what is below it). */
export async function diffTurn(
  ws: WorkspaceClient,
  located: Located,
  uris: string[],
  name: (uri: string) => string,
): Promise<FileDiff[]> {
  const diffs: FileDiff[] = [];
  for await (const diff of turnDiffs(ws, located, uris, name)) diffs.push(diff);
  return diffs;
}

/** Requests asked of the service at once: a big turn's round trips overlap, its order stays. */
const BATCHES_IN_FLIGHT = 2;
/** What one request asks for: a few dozen paths, and no more than a few MiB of their contents. */
const BATCH_PATHS = 50;
const BATCH_BYTES = 4 << 20;

/** The turn's diffs one by one in the manifest's order, as they arrive: a big turn's first prints at once. */
export async function* turnDiffs(
  ws: WorkspaceClient,
  located: Located,
  uris: string[],
  name: (uri: string) => string,
): AsyncGenerator<FileDiff> {
  const { files } = await ws.manifest(located.turn.turnId);
  const chosen = files.filter(
    (file) =>
      file.change !== 'dir-created' &&
      file.change !== 'dir-deleted' &&
      (uris.length === 0 ||
        uris.some((uri) =>
          [file.uri, file.from].some((u) => u !== undefined && (u === uri || u.startsWith(`${uri}/`))),
        )),
  );
  const batches = batchesOf(chosen);
  const ask = (batch: FileChange[]): Promise<FileDiff[]> =>
    ws
      .diffs(
        located.turn.turnId,
        batch.map((change) => change.uri),
      )
      .then((diffs) => diffs.map((diff, i) => ({ diff, change: batch[i], patch: unifiedDiff(diff, batch[i], name) })));
  const queue: Promise<FileDiff[]>[] = [];
  let next = 0;
  const fill = () => {
    for (; queue.length < BATCHES_IN_FLIGHT && next < batches.length; next++) {
      const asked = ask(batches[next]);
      // A failure is raised in order by the await below; one asked after it is left unread.
      asked.catch(() => {});
      queue.push(asked);
    }
  };
  fill();
  while (queue.length > 0) {
    const diffs = await queue.shift()!;
    fill();
    yield* diffs;
  }
}

function batchesOf(changes: FileChange[]): FileChange[][] {
  const sizeOf = (state: State) => (state?.type === 'file' ? state.size : 0);
  const batches: FileChange[][] = [];
  let bytes = 0;
  for (const change of changes) {
    const size = sizeOf(change.before) + sizeOf(change.after);
    const last = batches.at(-1);
    // The first file goes alone: its patch prints while the next batches are read.
    if (!last || batches.length === 1 || last.length >= BATCH_PATHS || bytes + size > BATCH_BYTES) {
      batches.push([change]);
      bytes = size;
    } else {
      last.push(change);
      bytes += size;
    }
  }
  return batches;
}

function refuseActive(located: Located): void {
  if (located.turn.status === 'active' || located.session.activeTurnId === located.turn.turnId) {
    throw refused(`turn #${located.turn.number} is still running: an active turn is never undone`, 'TURN_ACTIVE', {
      turnId: located.turn.turnId,
    });
  }
}

/**
 * The turn `undo` means: the one named, else the latest agent turn of the workspace's most
 * recent session not yet undone. An active turn is refused, never skipped for an older one.
 */
export async function undoTarget(ws: WorkspaceClient, ref: string | undefined, sessionFlag?: string): Promise<Located> {
  if (ref !== undefined) {
    const located = await locateTurn(ws, ref, sessionFlag);
    refuseActive(located);
    return located;
  }
  const session = await chooseSession(ws, sessionFlag);
  const agentTurns = (await ws.turns(session.sessionId)).filter((turn) => turn.kind === 'agent').reverse();
  if (agentTurns[0]?.status === 'active') refuseActive({ session, turn: agentTurns[0] });
  const turn = agentTurns.find((candidate) => candidate.status !== 'rolled-back');
  if (!turn)
    throw refused(`nothing to undo in session ${session.sessionId}: every agent turn is undone`, 'NOTHING_TO_UNDO');
  return { session, turn };
}

/**
 * The turn `redo` undoes: the session's latest undo not itself undone. An undo is a rollback
 * turn of agent turns; a redo (a rollback of an undo) is not one, so a second redo takes back
 * the undo before, as a redo stack does, instead of undoing the first redo.
 */
export async function redoTarget(ws: WorkspaceClient, sessionFlag?: string): Promise<Located> {
  const session = await chooseSession(ws, sessionFlag);
  const turns = (await ws.turns(session.sessionId)).reverse();
  const kinds = new Map(turns.map((turn) => [turn.turnId, turn.kind]));
  const undoesAgentWork = (turn: Turn) => (turn.rollbackOf ?? []).some((id) => kinds.get(id) === 'agent');
  const turn = turns.find(
    (candidate) => candidate.kind === 'rollback' && candidate.status !== 'rolled-back' && undoesAgentWork(candidate),
  );
  if (!turn) throw refused(`nothing to redo in session ${session.sessionId}: no undo to take back`, 'NOTHING_TO_REDO');
  return { session, turn };
}

export interface UndoOptions {
  uris?: string[];
  /** Step indexes (`Step.index`) of the turn: only what those steps changed goes back. */
  steps?: number[];
  withChat?: boolean;
  force?: boolean;
  /** `keep-both`: a conflicting file stays, the restored version is written beside it. */
  keepBoth?: boolean;
  /** An undo from the agent's own chat (MCP): the asking active turn it is recorded in, and its tool call. */
  inTurn?: { turnId: string; stepId?: string; stepTitle?: string };
  /** This workspace's turn alone, not its linked turns in other projects (Turn.linked). */
  onlyHere?: boolean;
}

const onConflict = (keepBoth: boolean | undefined): OnConflict | undefined => (keepBoth ? 'keep-both' : undefined);

/** A rollback with its chat is of the whole turn; steps and paths are two ways to choose, one at a time. */
function checkUndoOptions(options: UndoOptions): void {
  if (options.withChat && options.uris !== undefined)
    throw usageError('withChat undoes a whole turn: it does not take chosen paths');
  if (options.withChat && options.steps !== undefined)
    throw usageError('withChat undoes a whole turn: it does not take steps');
  if (options.steps !== undefined && options.uris !== undefined) throw usageError('choose steps or paths, not both');
  for (const step of options.steps ?? []) {
    if (!Number.isSafeInteger(step) || step < 1)
      throw usageError(`a step is its number in the turn (1, 2, …), not ${JSON.stringify(step)}`);
  }
}

export function previewUndo(ws: WorkspaceClient, located: Located, options: UndoOptions): Promise<Plan> {
  checkUndoOptions(options);
  return ws.preview(located.turn.turnId, {
    uris: options.uris,
    steps: options.steps,
    withChat: options.withChat,
    onConflict: onConflict(options.keepBoth),
    ...(options.onlyHere ? { onlyHere: true } : {}),
  });
}

export function applyUndo(ws: WorkspaceClient, located: Located, options: UndoOptions): Promise<RollbackResult> {
  checkUndoOptions(options);
  if (options.withChat)
    return ws.rollbackWithChat(located.turn.turnId, options.force === true, onConflict(options.keepBoth));
  return ws.rollback(located.turn.turnId, {
    uris: options.uris,
    steps: options.steps,
    force: options.force === true,
    onConflict: onConflict(options.keepBoth),
    ...(options.onlyHere ? { onlyHere: true } : {}),
    ...(options.inTurn
      ? { inTurn: options.inTurn.turnId, stepId: options.inTurn.stepId, stepTitle: options.inTurn.stepTitle }
      : {}),
  });
}

export interface RewindOptions {
  withChat: boolean;
  force?: boolean;
  keepBoth?: boolean;
}

export function previewRewind(ws: WorkspaceClient, located: Located, options: RewindOptions): Promise<Plan> {
  return ws.previewRewind(located.session.sessionId, {
    toTurnId: located.turn.turnId,
    withChat: options.withChat,
    onConflict: onConflict(options.keepBoth),
  });
}

export function applyRewind(ws: WorkspaceClient, located: Located, options: RewindOptions): Promise<RollbackResult> {
  return ws.rewind(located.session.sessionId, {
    toTurnId: located.turn.turnId,
    withChat: options.withChat,
    force: options.force === true,
    onConflict: onConflict(options.keepBoth),
  });
}
