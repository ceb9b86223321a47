// Fills a turnback store with many small turns through the library API, as an agent would.
import type { Engine } from '../../server/engine/api.js';
import { editsFor, type Workload } from '../workloads.js';

export interface SeedProgress {
  (done: number, total: number): void;
}

/** `turns` turns in one session, each writing one file of the workload and one assistant message. */
export async function seedTurns(
  engine: Engine,
  sessionId: string,
  workload: Workload,
  turns: number,
  firstEditId: number,
  progress?: SeedProgress,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < turns; i++) {
    const file = workload.paths[i % workload.paths.length];
    const edits = await editsFor(workload, [file], firstEditId + i);
    const { turnId } = await engine.input({
      sessionId,
      platform: 'webui',
      sessionType: 'chat',
      content: `seeded turn ${i + 1}: adjust ${file}`,
    });
    if (!turnId) throw new Error('the engine began no turn while seeding');
    await engine.storage.writeFile(`workspace:/${file}`, edits[0].content, { sessionId });
    await engine.message({ sessionId, role: 'assistant', content: `Updated ${file}.` });
    await engine.turnEnd({ sessionId });
    ids.push(turnId);
    if (progress && (i + 1) % 1000 === 0) progress(i + 1, turns);
  }
  return ids;
}

/** `sessions` sessions of one seeded turn each. */
export async function seedSessions(
  engine: Engine,
  workload: Workload,
  sessions: number,
  firstEditId: number,
): Promise<void> {
  for (let s = 0; s < sessions; s++) {
    await seedTurns(engine, `session-${String(s).padStart(5, '0')}`, workload, 1, firstEditId + s);
  }
}
