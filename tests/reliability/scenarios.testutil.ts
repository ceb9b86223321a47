// The engine operations the crash sweep and the fault injection drive, each with its set-up
// (done with the seam silent) and the trees that tell right from wrong afterwards:
// `turnStart` is what a rollback must reach; during the operation every path must stay
// wholly in its `before` or its `after` state.
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Engine } from '../../server/engine/api.js';
import type { RollbackResult } from '../../server/protocol.js';
import { clockOf } from './open-engine.testutil.js';
import { versionedContent } from './versioned-content.testutil.js';

export const SESSION = 'rel-1';
export const OTHER_SESSION = 'rel-2';

export const START_FILES: Record<string, string> = {
  'a.txt': versionedContent('a.txt', 1),
  'src/b.ts': versionedContent('b.ts', 1),
  'old/c.txt': versionedContent('c.txt', 1),
  'keep/d.txt': versionedContent('d.txt', 1),
  'mode.sh': versionedContent('mode.sh', 1),
};

export interface ScenarioState {
  /** The turn a later rollback must undo, and whose start tree it must reach. */
  turnId: string;
  /** Another session's turn that must survive (the GC case). */
  otherTurnId?: string;
  /** The command whose after scan is under test. */
  execId?: string;
}

export interface Scenario {
  name: string;
  /** Brings the store to the moment before the operation; `begin` opens the turn under test. */
  /** `begin` opens the turn under test and takes its start tree; `markStart` only takes the tree. */
  setup(
    engine: Engine,
    begin: (sessionId: string, title: string) => Promise<string>,
    markStart: () => Promise<void>,
  ): Promise<ScenarioState>;
  run(engine: Engine, state: ScenarioState, afterStep?: () => Promise<void>): Promise<unknown>;
  /** Engine options for the pruning and the refusal cases. */
  keepSessions?: number;
  maxFileSize?: number;
  /** 'none': the operation is done inside SQLite alone (one atomic transaction); the sweeps check it touches no file. */
  filesystem?: 'none';
  /** Runs the rollback again after a stop; default: a plain rollback of the turn. */
  rerun?: (engine: Engine, state: ScenarioState, force: boolean) => Promise<RollbackResult>;
  /** Scenario-specific checks after the rerun; answers problems. */
  check?: (engine: Engine, state: ScenarioState) => Promise<string[]>;
}

/** Begins a turn without marking it as the one under test. */
async function beginOther(engine: Engine, sessionId: string, content: string): Promise<string> {
  const { turnId } = await engine.input({ sessionId, platform: 'webui', sessionType: 'chat', content });
  if (!turnId) throw new Error('no turn began: scopes do not match');
  return turnId;
}

/**
 * The agent's work in one turn: a modify, a create with a new parent, a delete, a rename, a
 * mkdir, a second write of the first file (a chain) and a line put first in another (so a
 * rollback writes a shorter content over a file in place, and cuts it back: a cut between the
 * two leaves it part old, part new). `afterStep` lets a profile run see the intermediate trees, which a cut
 * between two steps legitimately leaves.
 */
export async function agentEdits(
  engine: Engine,
  sessionId: string,
  afterStep: () => Promise<void> = async () => {},
): Promise<void> {
  const opts = { sessionId };
  await engine.storage.writeFile('workspace:/a.txt', versionedContent('a.txt', 2), opts);
  await afterStep();
  await engine.storage.writeFile('workspace:/new/e.txt', versionedContent('e.txt', 1), opts);
  await afterStep();
  await engine.storage.delete('workspace:/old/c.txt', opts);
  await afterStep();
  await engine.storage.rename('workspace:/src/b.ts', 'workspace:/src/b2.ts', opts);
  await afterStep();
  await engine.storage.mkdir('workspace:/empty', opts);
  await afterStep();
  await engine.storage.writeFile('workspace:/a.txt', versionedContent('a.txt', 3), opts);
  await afterStep();
  await engine.storage.writeFile(
    'workspace:/keep/d.txt',
    `a line the agent put first\n${versionedContent('d.txt', 1)}`,
    opts,
  );
}

/** A shell command the engine cannot see into, as a host runs it between exec and exec-end. */
function shell(engine: Engine, line: string): void {
  execFileSync('/bin/bash', ['-c', line], { cwd: engine.workspace, stdio: 'pipe' });
}

/** What a command does to the start files: a modify, a delete, a move of a directory, a new nested file, a chmod. */
const COMMAND =
  "printf 'by a command\\n' >> a.txt && rm old/c.txt && mv src lib && mkdir -p gen/out && printf 'made\\n' > gen/out/f.txt && chmod 755 mode.sh";

/** Runs a whole command (before scan, command, after scan) in the session's active turn. */
async function runCommand(engine: Engine, sessionId: string, line: string): Promise<void> {
  const { execId } = await engine.exec({ sessionId, tool: 'Bash', command: line });
  if (!execId) throw new Error('no command began: no active turn');
  shell(engine, line);
  await engine.execEnd({ sessionId, execId });
}

/** After the cut: one more command in a new turn must still be undone exactly (the index is sound). */
async function commandStillUndone(engine: Engine): Promise<string[]> {
  const before = await readFile(join(engine.workspace, 'keep/d.txt'), 'utf8');
  const { turnId } = await engine.input({
    sessionId: OTHER_SESSION,
    platform: 'webui',
    sessionType: 'chat',
    content: 'after the cut',
  });
  await runCommand(engine, OTHER_SESSION, "printf 'later\\n' >> keep/d.txt");
  await engine.turnEnd({ sessionId: OTHER_SESSION });
  const result = await engine.rollback(turnId!);
  const after = await readFile(join(engine.workspace, 'keep/d.txt'), 'utf8');
  if (!result.ok || after !== before)
    return [`a later command is not undone exactly: ok ${result.ok}, ${JSON.stringify(result.errors)}`];
  return [];
}

export const scenarios: Scenario[] = [
  {
    name: 'capture',
    setup: async (_engine, begin) => ({ turnId: await begin(SESSION, 'capture') }),
    run: (engine, _state, afterStep) => agentEdits(engine, SESSION, afterStep),
  },
  {
    name: 'commit',
    setup: async (engine, begin) => {
      const turnId = await begin(SESSION, 'commit');
      await agentEdits(engine, SESSION);
      return { turnId };
    },
    run: (engine) => engine.turnEnd({ sessionId: SESSION }),
  },
  {
    name: 'rollback',
    setup: async (engine, begin) => {
      const turnId = await begin(SESSION, 'rollback');
      await agentEdits(engine, SESSION);
      await engine.turnEnd({ sessionId: SESSION });
      return { turnId };
    },
    run: (engine, s) => engine.rollback(s.turnId),
  },
  {
    name: 'rollback with chat',
    setup: async (engine, begin) => {
      const turnId = await begin(SESSION, 'rollback with chat');
      await engine.message({ sessionId: SESSION, role: 'assistant', content: 'editing a.txt' });
      await agentEdits(engine, SESSION);
      await engine.message({ sessionId: SESSION, role: 'assistant', content: 'done' });
      await engine.turnEnd({ sessionId: SESSION });
      return { turnId };
    },
    run: (engine, s) => engine.rollbackWithChat(s.turnId),
    rerun: (engine, s, force) => engine.rollbackWithChat(s.turnId, { force }),
    check: async (engine, s) => {
      const left = engine.messages(SESSION, { turnId: s.turnId });
      return left.length ? [`${left.length} message(s) of the rolled back turn are still there`] : [];
    },
  },
  {
    // Rewind to the first of two turns: every path both touched goes back to its start.
    name: 'rewind',
    setup: async (engine, begin) => {
      const turnId = await begin(SESSION, 'first');
      await agentEdits(engine, SESSION);
      await engine.turnEnd({ sessionId: SESSION });
      await beginOther(engine, SESSION, 'second');
      await engine.storage.writeFile('workspace:/a.txt', versionedContent('a.txt', 9), { sessionId: SESSION });
      await engine.storage.delete('workspace:/keep/d.txt', { sessionId: SESSION });
      await engine.storage.rename('workspace:/new/e.txt', 'workspace:/keep/e.txt', { sessionId: SESSION });
      await engine.turnEnd({ sessionId: SESSION });
      return { turnId };
    },
    run: (engine, s) => engine.rewind(SESSION, { toTurnId: s.turnId, withChat: true }),
    rerun: (engine, s, force) => engine.rewind(SESSION, { toTurnId: s.turnId, withChat: true, force }),
  },
  {
    // Undoing a rollback: the rollback turn is itself rolled back to the tree it started from.
    name: 'undo of a rollback',
    setup: async (engine, _begin, markStart) => {
      await beginOther(engine, SESSION, 'work');
      await agentEdits(engine, SESSION);
      await engine.turnEnd({ sessionId: SESSION });
      const work = engine.listTurns(SESSION).at(-1)!.turnId;
      await markStart();
      const { rollbackTurnId } = await engine.rollback(work);
      if (!rollbackTurnId) throw new Error('the rollback recorded no turn');
      return { turnId: rollbackTurnId };
    },
    run: (engine, s) => engine.rollback(s.turnId),
  },
  {
    // The before scan of the first command: the index built, every content stored, then synced.
    name: 'exec before scan',
    setup: async (_engine, begin) => ({ turnId: await begin(SESSION, 'command') }),
    run: (engine) => engine.exec({ sessionId: SESSION, tool: 'Bash', command: COMMAND }),
    check: (engine) => commandStillUndone(engine),
  },
  {
    // The after scan: what the command changed becomes entries, and the index follows the disk.
    name: 'exec after scan',
    setup: async (engine, begin) => {
      const turnId = await begin(SESSION, 'command');
      const { execId } = await engine.exec({ sessionId: SESSION, tool: 'Bash', command: COMMAND });
      shell(engine, COMMAND);
      return { turnId, execId: execId! };
    },
    run: (engine, s) => engine.execEnd({ sessionId: SESSION, execId: s.execId! }),
    check: (engine) => commandStillUndone(engine),
  },
  {
    // A later before scan updates an index already built: what the person changed between turns
    // becomes the new baseline, and a command over it is undone to the person's version.
    name: 'index update',
    setup: async (engine, begin) => {
      await beginOther(engine, OTHER_SESSION, 'first command');
      await runCommand(engine, OTHER_SESSION, "printf 'first\\n' >> keep/d.txt");
      await engine.turnEnd({ sessionId: OTHER_SESSION });
      shell(
        engine,
        "printf 'the person\\n' >> a.txt && rm src/b.ts && mkdir -p person && printf 'p\\n' > person/p.txt",
      );
      return { turnId: await begin(SESSION, 'second command') };
    },
    run: async (engine) => {
      const { execId } = await engine.exec({ sessionId: SESSION, tool: 'Bash', command: COMMAND });
      shell(engine, "printf 'agent\\n' >> a.txt && rm person/p.txt");
      await engine.execEnd({ sessionId: SESSION, execId: execId! });
    },
    check: (engine) => commandStillUndone(engine),
  },
  {
    // One session is cleared while another still needs blobs both share (same contents).
    name: 'gc sweep',
    filesystem: 'none',
    setup: async (engine, begin) => {
      const gone = await beginOther(engine, OTHER_SESSION, 'to be cleared');
      await engine.storage.writeFile('workspace:/keep/d.txt', versionedContent('d.txt', 7), {
        sessionId: OTHER_SESSION,
      });
      await engine.storage.writeFile('workspace:/gone.txt', versionedContent('gone.txt', 1), {
        sessionId: OTHER_SESSION,
      });
      await engine.turnEnd({ sessionId: OTHER_SESSION });
      const turnId = await begin(SESSION, 'survives');
      await agentEdits(engine, SESSION);
      await engine.storage.writeFile('workspace:/keep/d.txt', versionedContent('d.txt', 8), { sessionId: SESSION });
      await engine.turnEnd({ sessionId: SESSION });
      return { turnId, otherTurnId: gone };
    },
    run: (engine) => engine.clearSession(OTHER_SESSION),
    // Cut short, the cleared session may still be listed: then it must still be whole.
    check: async (engine, s) => {
      if (!engine.listSessions().some((x) => x.sessionId === OTHER_SESSION)) return [];
      const plan = await engine.preview(s.otherTurnId!);
      return plan.unrestorable.length
        ? [`the half-cleared session lost blobs: ${JSON.stringify(plan.unrestorable)}`]
        : [];
    },
  },
  {
    // Changes whose originals cannot be kept are refused and change nothing; the turn's other
    // write stays undoable. (Here d.txt, b.ts and c.txt are over the limit; a.txt is not.)
    name: 'refusal',
    maxFileSize: 7_000,
    setup: async (_engine, begin) => ({ turnId: await begin(SESSION, 'refused') }),
    run: async (engine) => {
      const s = { sessionId: SESSION };
      await engine.storage.writeFile('workspace:/a.txt', versionedContent('a.txt', 2), s);
      const refusals = [
        () => engine.storage.writeFile('workspace:/keep/d.txt', versionedContent('d.txt', 2), s),
        () => engine.storage.delete('workspace:/src', { ...s, recursive: true }),
        () => engine.storage.rename('workspace:/a.txt', 'workspace:/old/c.txt', s),
      ];
      for (const refused of refusals) {
        try {
          await refused();
        } catch (e) {
          if ((e as { code?: string }).code === 'TOO_LARGE') continue;
          throw e;
        }
        throw Object.assign(new Error('a change whose original cannot be kept went ahead'), { code: 'NOT_REFUSED' });
      }
    },
  },
  {
    // The commit after which the older session, idle past `keepDays`, is pruned with its blobs.
    name: 'gc prune on commit',
    setup: async (engine, begin) => {
      await beginOther(engine, OTHER_SESSION, 'to be pruned');
      await engine.storage.writeFile('workspace:/keep/d.txt', versionedContent('d.txt', 7), {
        sessionId: OTHER_SESSION,
      });
      await engine.turnEnd({ sessionId: OTHER_SESSION });
      clockOf(engine.dataDir).passDays(31);
      const turnId = await begin(SESSION, 'survives');
      await agentEdits(engine, SESSION);
      await engine.storage.writeFile('workspace:/keep/d.txt', versionedContent('d.txt', 8), { sessionId: SESSION });
      return { turnId };
    },
    run: (engine) => engine.turnEnd({ sessionId: SESSION }),
    check: async (engine) =>
      engine.listSessions().some((x) => x.sessionId === OTHER_SESSION)
        ? ['the session idle past keepDays was not pruned once the turn committed']
        : [],
  },
];

/** The scenarios a filesystem watcher changes (the scans, and a capture after them): the suites run them with it on too. */
export const WATCHED: ReadonlySet<string> = new Set(['capture', 'exec after scan', 'index update']);

/**
 * With the watcher, the first command's before scan looks at what changed since the turn's
 * start scan: here a file edited, one made in a new folder, one removed, between the two
 * (the turn's start tree is the one the command found).
 */
const dirtyBeforeScan: Scenario = {
  name: 'exec before scan of dirty paths',
  setup: async (engine, begin, mark) => {
    const turnId = await begin(SESSION, 'command');
    await engine.settled();
    // The person's, before any command of the turn: the before scan takes it as the baseline.
    shell(engine, "printf 'between\\n' >> a.txt && mkdir -p fresh && printf 'f\\n' > fresh/f.txt && rm old/c.txt");
    await mark();
    return { turnId };
  },
  run: (engine) => engine.exec({ sessionId: SESSION, tool: 'Bash', command: COMMAND }),
  check: (engine) => commandStillUndone(engine),
};

/** What the suites sweep with the watcher on. */
export const watchedScenarios: Scenario[] = [...scenarios.filter((s) => WATCHED.has(s.name)), dirtyBeforeScan];
