// What the engine's crash recovery did on open, told to the person who started the server.
import type { RecoveryReport } from '../engine/api.js';

export function describeRecovery(report: RecoveryReport | undefined): string[] {
  if (!report) return [];
  const lines: string[] = [];
  const resumed = report.resumedTurns.length;
  if (resumed > 0) {
    lines.push(
      resumed === 1
        ? "1 agent turn cut short by a crash goes on: its session's next events are recorded in it"
        : `${resumed} agent turns cut short by a crash go on: their sessions' next events are recorded in them`,
    );
  }
  const turns = report.interruptedTurns.length;
  if (turns > 0) {
    lines.push(
      `recovered ${turns} turn${turns === 1 ? '' : 's'} cut short by a crash: committed and marked interrupted`,
    );
  }
  const files = report.finishedFiles;
  if (files > 0) {
    lines.push(
      `finished ${files} file${files === 1 ? '' : 's'} a rollback was writing over in place when it was cut short`,
    );
  }
  for (const { rollbackTurnId, rollbackOf } of report.interruptedRollbacks) {
    lines.push(
      `rollback ${rollbackTurnId} (of ${rollbackOf.join(', ')}) was cut short by a crash: run it again from the console to complete it`,
    );
  }
  return lines;
}
