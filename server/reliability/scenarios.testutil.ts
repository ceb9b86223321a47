// The engine operations the crash sweep and the fault injection drive, each with its set-up
// (done with the seam silent) and the trees that tell right from wrong afterwards:
// `turnStart` is what a rollback must reach; during the operation every path must stay
// wholly in its `before` or its `after` state.
import type { Engine } from '../engine/api.js';
import type { RollbackResult } from '../protocol.js';
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
}

export interface Scenario {
  name: string;
  /** Brings the store to the moment before the operation; `begin` opens the turn under test. */
  /** `begin` opens the turn under test and takes its start tree; `markStart` only takes the tree. */
  setup(engine: Engine, begin: (sessionId: string, title: string) => Promise<string>, markStart: () => Promise<void>): Promise<ScenarioState>;
  run(engine: Engine, state: ScenarioState, afterStep?: () => Promise<void>): Promise<unknown>;
  /** Engine option for the pruning case. */
  keepSessions?: number;
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
 * mkdir and a second write of the first file (a chain). `afterStep` lets a profile run see
 * the intermediate trees, which a cut between two steps legitimately leaves.
 */
export async function agentEdits(engine: Engine, sessionId: string, afterStep: () => Promise<void> = async () => {}): Promise<void> {
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
    // One session is cleared while another still needs blobs both share (same contents).
    name: 'gc sweep',
    filesystem: 'none',
    setup: async (engine, begin) => {
      const gone = await beginOther(engine, OTHER_SESSION, 'to be cleared');
      await engine.storage.writeFile('workspace:/keep/d.txt', versionedContent('d.txt', 7), { sessionId: OTHER_SESSION });
      await engine.storage.writeFile('workspace:/gone.txt', versionedContent('gone.txt', 1), { sessionId: OTHER_SESSION });
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
      return plan.unrestorable.length ? [`the half-cleared session lost blobs: ${JSON.stringify(plan.unrestorable)}`] : [];
    },
  },
  {
    // The commit that pushes the older session past `keepSessions`, so it is pruned with its blobs.
    name: 'gc prune on commit',
    keepSessions: 1,
    setup: async (engine, begin) => {
      await beginOther(engine, OTHER_SESSION, 'to be pruned');
      await engine.storage.writeFile('workspace:/keep/d.txt', versionedContent('d.txt', 7), { sessionId: OTHER_SESSION });
      await engine.turnEnd({ sessionId: OTHER_SESSION });
      const turnId = await begin(SESSION, 'survives');
      await agentEdits(engine, SESSION);
      await engine.storage.writeFile('workspace:/keep/d.txt', versionedContent('d.txt', 8), { sessionId: SESSION });
      return { turnId };
    },
    run: (engine) => engine.turnEnd({ sessionId: SESSION }),
  },
];
