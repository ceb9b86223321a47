import { describe, expect, it } from 'vitest';
import { describeRecovery } from './recovery.js';

describe('describeRecovery', () => {
  it('says nothing after a clean stop', () => {
    expect(describeRecovery(undefined)).toEqual([]);
    expect(
      describeRecovery({
        resumedTurns: [],
        interruptedTurns: [],
        interruptedRollbacks: [],
        removedTempFiles: 3,
        finishedFiles: 0,
      }),
    ).toEqual([]);
  });

  it('names interrupted turns and the rollbacks to run again', () => {
    const lines = describeRecovery({
      resumedTurns: [],
      interruptedTurns: ['t_1', 't_2'],
      interruptedRollbacks: [{ rollbackTurnId: 't_9', rollbackOf: ['t_3'] }],
      removedTempFiles: 0,
      finishedFiles: 0,
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^recovered 2 turns/);
    expect(lines[1]).toContain('t_9');
    expect(lines[1]).toContain('t_3');
  });

  it('counts the files a cut-short rollback was writing in place, finished on open', () => {
    const lines = describeRecovery({
      resumedTurns: [],
      interruptedTurns: ['t_9'],
      interruptedRollbacks: [{ rollbackTurnId: 't_9', rollbackOf: ['t_3'] }],
      removedTempFiles: 0,
      finishedFiles: 2,
    });
    expect(lines).toEqual([
      'recovered 1 turn cut short by a crash: committed and marked interrupted',
      'finished 2 files a rollback was writing over in place when it was cut short',
      'rollback t_9 (of t_3) was cut short by a crash: run it again from the console to complete it',
    ]);
  });

  it('names the agent turns that go on after the crash', () => {
    const lines = describeRecovery({
      resumedTurns: ['t_4'],
      interruptedTurns: [],
      interruptedRollbacks: [],
      removedTempFiles: 0,
      finishedFiles: 0,
    });
    expect(lines).toEqual(["1 agent turn cut short by a crash goes on: its session's next events are recorded in it"]);
  });
});
