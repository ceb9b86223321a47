// A turn of many commands as a host's hooks report it, with the service killed between two of
// its events: what the agent does next happens while no service runs, and the next event
// meets a service started again (a new engine on the same store, a new receiver that knows
// nothing). The turn must go on, and its undo and a rewind must restore the start tree.
import { execFileSync } from 'node:child_process';
import type { Engine } from '../../server/engine/api.js';
import { claudeCodeHost } from '../../server/adapters/claude-code/host.js';
import * as p from '../../server/adapters/claude-code/test/payloads.js';
import { HostReceiver } from '../../server/adapters/core/receiver.js';
import { makeSandbox } from '../../server/testkit/sandbox.js';
import { treeAsText } from '../../server/testkit/tree.js';
import { abandonEngine, openTestEngine } from './open-engine.testutil.js';

export const CUT_START_FILES = { 'a.txt': 'a\n', 'b.txt': 'b\n', 'precious.txt': 'keep me\n' };

interface TurnEvent {
  name: string;
  payload: object;
  /** What the agent does once the event is answered (a command runs, a file tool writes). */
  then?: string;
}

/** The turn: two commands that end, a file tool, a command whose end never comes, a file tool on the file it made. */
export function multiCommandTurn(cwd: string): TurnEvent[] {
  const c = { cwd, transcriptPath: '/nonexistent/transcript.jsonl' };
  const echo = p.bash(c, 'echo one > one.txt');
  const rm = p.bash(c, 'rm precious.txt');
  return [
    { name: 'prompt', payload: p.userPromptSubmit(c, 'Tidy up') },
    { name: 'pre echo', payload: echo, then: 'echo one > one.txt' },
    { name: 'post echo', payload: p.postToolUse(echo) },
    { name: 'pre edit a.txt', payload: p.edit(c, `${cwd}/a.txt`, 'a', 'A'), then: 'echo A > a.txt' },
    { name: 'pre rm', payload: rm, then: 'rm precious.txt' },
    { name: 'post rm', payload: p.postToolUse(rm) },
    { name: 'pre mv (no post)', payload: p.bash(c, 'mv b.txt c.txt'), then: 'mv b.txt c.txt' },
    { name: 'pre edit c.txt', payload: p.edit(c, `${cwd}/c.txt`, 'b', 'C'), then: 'echo C > c.txt' },
    { name: 'stop', payload: p.stop(c) },
  ];
}

/**
 * Kills the service right after event `cut` is answered (before what the agent does next), then
 * goes on with a new one; `undo`: the turn's rollback, else a rewind to it. The problems found,
 * each naming the cut point and why.
 */
export async function killBetweenEvents(
  cut: number,
  undo: 'rollback' | 'rewind',
  restart: 'at once' | 'at the next event',
): Promise<string[]> {
  const sandbox = await makeSandbox(CUT_START_FILES);
  const problems: string[] = [];
  const events = multiCommandTurn(sandbox.workspace);
  const label = `killed after event ${cut} (${events[cut].name}), started again ${restart}, then ${undo}`;
  let engine: Engine = await openTestEngine(sandbox, {});
  let receiver = new HostReceiver(claudeCodeHost);
  try {
    const start = await treeAsText(sandbox.workspace);
    const startAgain = async () => {
      engine = await openTestEngine(sandbox, {});
      receiver = new HostReceiver(claudeCodeHost);
    };
    for (const [i, event] of events.entries()) {
      // The hook of the event after the kill starts the service (or something did earlier).
      if (i === cut + 1 && restart === 'at the next event') await startAgain();
      const answer = await receiver.receive(event.payload, engine);
      // The command's end after a restart: the new service never saw it begin (its turn's end scans it).
      const unknownEnd = i === cut + 1 && event.name.startsWith('post');
      if (!answer.ok || (answer.outcome !== 'forwarded' && !unknownEnd))
        problems.push(`${label}: event ${i} (${event.name}) answered ${JSON.stringify(answer)}`);
      if (i === cut) {
        await abandonEngine(sandbox, engine);
        if (restart === 'at once') await startAgain();
      }
      if (event.then) execFileSync('/bin/sh', ['-c', event.then], { cwd: sandbox.workspace });
    }
    const turns = engine.listTurns(p.SESSION_ID);
    if (turns.length !== 1)
      problems.push(`${label}: ${turns.length} turns (${turns.map((t) => t.status).join(', ')}), not the one turn`);
    const [turn] = turns;
    if (turn?.status !== 'committed') problems.push(`${label}: the turn is ${turn?.status ?? 'missing'}`);
    if (turn) {
      const result =
        undo === 'rollback'
          ? await engine.rollback(turn.turnId)
          : await engine.rewind(p.SESSION_ID, { toTurnId: turn.turnId });
      if (!result.ok) problems.push(`${label}: ${undo} not ok: ${JSON.stringify(result.errors)}`);
      const end = JSON.stringify(await treeAsText(sandbox.workspace));
      if (end !== JSON.stringify(start))
        problems.push(`${label}: after ${undo} the tree is ${end}, not the start tree ${JSON.stringify(start)}`);
    }
  } catch (e) {
    problems.push(`${label}: ${(e as Error).message}`);
  } finally {
    await engine.close().catch(() => undefined);
    await sandbox.cleanup();
  }
  return problems;
}
