import { describe, expect, it } from 'vitest';
import { describeRecovery } from './recovery.js';

describe('describeRecovery', () => {
  it('says nothing after a clean stop', () => {
    expect(describeRecovery(undefined)).toEqual([]);
    expect(describeRecovery({ interruptedTurns: [], interruptedRollbacks: [], removedTempFiles: 3 })).toEqual([]);
  });

  it('names interrupted turns and the rollbacks to run again', () => {
    const lines = describeRecovery({
      interruptedTurns: ['t_1', 't_2'],
      interruptedRollbacks: [{ rollbackTurnId: 't_9', rollbackOf: ['t_3'] }],
      removedTempFiles: 0,
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^recovered 2 turns/);
    expect(lines[1]).toContain('t_9');
    expect(lines[1]).toContain('t_3');
  });
});
