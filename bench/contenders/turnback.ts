// turnback through its library API: input → storage writes → turnEnd; rollback by turn id.
import type { Engine, EngineOptions } from '../../server/engine/api.js';
import { treeSize } from '../fs-tools.js';
import type { FileEdit } from '../workloads.js';
import type { Contender } from './contender.js';

export type OpenEngine = (options: EngineOptions) => Promise<Engine>;

/** Loaded lazily so the other contenders still run where the engine does not load. */
export async function loadOpenEngine(): Promise<OpenEngine> {
  const engineModule = await import('../../server/engine/index.js');
  return engineModule.openEngine as OpenEngine;
}

export interface TurnbackContender extends Contender {
  engine: Engine;
  sessionId: string;
}

export const BENCH_PLATFORM = 'webui';

export function workspaceUri(relativePath: string): string {
  return `workspace:/${relativePath}`;
}

/** One turn through the library API, exactly as an embedding host drives it. */
export async function engineTurn(engine: Engine, sessionId: string, edits: FileEdit[], title: string): Promise<string> {
  const { turnId } = await engine.input({ sessionId, platform: BENCH_PLATFORM, sessionType: 'chat', content: title });
  if (!turnId) throw new Error('the engine began no turn: check scopes');
  for (const edit of edits) await engine.storage.writeFile(workspaceUri(edit.path), edit.content, { sessionId });
  await engine.turnEnd({ sessionId });
  return turnId;
}

/** Waits for the background work of the last turn end (the journal checkpoint). */
export async function settleEngine(engine: Engine): Promise<void> {
  await engine.settled();
}

/** Rolls a turn back and answers the id of the rollback turn it recorded. */
export async function engineRollback(engine: Engine, turnId: string): Promise<string | null> {
  const result = await engine.rollback(turnId);
  if (!result.ok) throw new Error(`rollback of ${turnId} failed: ${JSON.stringify(result.errors.slice(0, 3))}`);
  return result.rollbackTurnId;
}

export async function turnbackContender(
  openEngine: OpenEngine,
  options: EngineOptions & { dataDir: string },
  sessionId = 'bench',
): Promise<TurnbackContender> {
  const engine = await openEngine({ keepSessions: 0, ...options });
  return {
    name: 'turnback',
    workspace: options.workspace,
    engine,
    sessionId,
    async beforeTurn() {},
    turn: (edits, title) => engineTurn(engine, sessionId, edits, title),
    // The checkpoint a turn end leaves running in the background must not land in another figure.
    settle: () => settleEngine(engine),
    rollback: async (turnId) => {
      await engineRollback(engine, turnId);
    },
    async storeSize() {
      // The whole data dir: store (SQLite + blobs); its files/ and tmp/ roots stay empty here.
      return treeSize(options.dataDir);
    },
    close: () => engine.close(),
  };
}
