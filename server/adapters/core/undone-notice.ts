// What the person undid of a session's work since its agent's last prompt, as one short paragraph
// for that agent (docs/api.md, "Telling the agent what was undone"). It is read from the store
// itself: every undo, restore, redo and rewind is a rollback turn, so nothing else needs keeping,
// it survives a restart, and the next prompt's own turn ends the window (said once).
import type { Engine } from '../../engine/api.js';
import { sameForDrift } from '../../engine/state/state.js';
import type { FileChange, State, Turn } from '../../protocol.js';

/** At most this many paths are named; the rest are counted. */
export const NOTICE_PATH_LIMIT = 20;
/** At most this many undos are named; the rest are counted. */
const NOTICE_OPERATION_LIMIT = 5;
/** How many of the session's newest turns are looked at. */
const RECENT_TURNS = 40;
/** How many of the pins session's newest turns are looked at. */
const RECENT_PIN_TURNS = 10;
/** The session of the workspace's pins: a rewind to a pin takes back turns of every session. */
const PINS_SESSION = 'turnback-pins';

interface NetPath {
  uri: string;
  from?: string;
  first: State;
  last: State;
  /** The rollback turn that touched it last: what it is back to. */
  by: Turn;
}

/** The session's turns since its agent's last prompt that took something of the session back, oldest first. */
function undosSinceLastPrompt(engine: Engine, sessionId: string): Turn[] {
  let turns: Turn[];
  try {
    // Most prompts follow the agent's own turn: one turn read tells there is nothing to say of this session.
    turns = engine.listTurns(sessionId, { limit: 1 });
    if (turns[0]?.kind !== 'agent') turns = engine.listTurns(sessionId, { limit: RECENT_TURNS });
  } catch {
    return [];
  }
  const lastAgent = turns.findLast((t) => t.kind === 'agent');
  if (!lastAgent && turns.length < RECENT_TURNS) return [];
  const since = lastAgent ? turns.filter((t) => t.number > lastAgent.number) : turns;
  const own = since.filter((t) => t.kind === 'rollback' && t.status !== 'active');
  if (!lastAgent) return own;
  // A rewind to a pin (and its redo) is a turn of the pins session: it counts when it reached one of this session's turns.
  const mine = new Set(turns.map((t) => t.turnId));
  let pins: Turn[] = [];
  try {
    pins = engine.listTurns(PINS_SESSION, { limit: RECENT_PIN_TURNS });
  } catch {
    // no pins in this workspace
  }
  const pinRewinds = pins.filter(
    (t) => t.kind === 'rollback' && t.status !== 'active' && t.startedAt > lastAgent.startedAt,
  );
  const reached = new Set<string>();
  for (const t of pinRewinds)
    if ((t.rollbackOf ?? []).some((id) => mine.has(id) || reached.has(id))) reached.add(t.turnId);
  const all = [...own, ...pinRewinds.filter((t) => reached.has(t.turnId))];
  return all.sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0));
}

/** Each path the undos changed, from its state before the first of them to its state after the last. */
function netPaths(engine: Engine, undos: Turn[]): NetPath[] {
  const paths = new Map<string, NetPath>();
  for (const turn of undos) {
    let files: FileChange[];
    try {
      files = engine.getManifest(turn.turnId).files;
    } catch {
      continue;
    }
    for (const file of files) {
      if (file.skipped) continue;
      const known = paths.get(file.uri);
      if (known) Object.assign(known, { last: file.after, by: turn });
      else paths.set(file.uri, { uri: file.uri, from: file.from, first: file.before, last: file.after, by: turn });
    }
  }
  // An undo that was redone before the prompt leaves the path as the agent left it: nothing to say.
  return [...paths.values()].filter((p) => !sameForDrift(p.first, p.last));
}

/** A path as the agent names it: relative to the workspace, quoted (a name is data, never words to the agent). */
function shown(uri: string): string {
  const path = uri.startsWith('workspace:/') ? uri.slice('workspace:/'.length) : uri;
  const short = [...path].length > 200 ? `${[...path].slice(0, 200).join('')}…` : path;
  return JSON.stringify(short).replace(/[<>]/g, (c) => (c === '<' ? '\\u003c' : '\\u003e'));
}

/** What a rollback turn's title says a path is back to: `as before turn #3`, `as turn #3 left it`. */
function backTo(title: string): string {
  let m = /^Undo of (steps? [\d, ]+) of #(\d+)$/.exec(title);
  if (m) return `as before ${m[1]} of turn #${m[2]}`;
  m = /^Undo of #(\d+)(?:–#\d+)?$/.exec(title);
  if (m) return `as before turn #${m[1]}`;
  m = /^Redo of #(?:\d+–#)?(\d+)$/.exec(title);
  if (m) return `as turn #${m[1]} left it`;
  m = /^Rewind to #(\d+)$/.exec(title);
  if (m) return `as before turn #${m[1]}`;
  m = /^Rewind to pin "(.*)"$/.exec(title);
  if (m) return `as at the pin ${JSON.stringify(m[1].slice(0, 80))}`;
  return `as before ${JSON.stringify(title.slice(0, 80))}`;
}

function described(path: NetPath): string {
  if (path.last === null) return `${shown(path.uri)} (deleted)`;
  const moved = path.from !== undefined ? ` (moved back from ${shown(path.from)})` : '';
  if (path.first === null && !moved) return `${shown(path.uri)} (re-created, ${backTo(path.by.title)})`;
  return `${shown(path.uri)}${moved || ` (${backTo(path.by.title)})`}`;
}

/**
 * The paragraph for the session's next prompt, or null when nothing of its work was taken back
 * since its agent's last prompt (or what was, was put back). Paths only, never contents.
 */
export function undoneNotice(engine: Engine, sessionId: string): string | null {
  const undos = undosSinceLastPrompt(engine, sessionId);
  if (undos.length === 0) return null;
  const paths = netPaths(engine, undos);
  if (paths.length === 0) return null;
  const titles = undos.slice(0, NOTICE_OPERATION_LIMIT).map((t) => t.title.slice(0, 120));
  const moreUndos = undos.length - titles.length;
  const named = paths.slice(0, NOTICE_PATH_LIMIT).map(described);
  const morePaths = paths.length - named.length;
  return (
    `turnback: since your last prompt the person took back work of this session (${titles.join('; ')}` +
    `${moreUndos > 0 ? `; and ${moreUndos} more` : ''}). ` +
    `These files are no longer as you left them: ${named.join(', ')}` +
    `${morePaths > 0 ? `, and ${morePaths} more` : ''}. ` +
    'Read them again before you edit them, and do not redo that work unless asked.'
  );
}
