import { describe, expect, it } from 'vitest';
import { budgetNote } from './status.js';

describe('turnback status: the store against its budget', () => {
  it('says the size against the budget, and the sessions pruned for it', () => {
    expect(budgetNote(undefined)).toBe('');
    expect(budgetNote({ bytes: 2 * 1024 ** 3, used: 3 * 1024 ** 2, prunedForBudget: 0, source: 'default' })).toBe(
      ' (contents 3.0 MiB of a 2.0 GiB budget)',
    );
    expect(budgetNote({ bytes: 50 * 1024 ** 2, used: 40 * 1024 ** 2, prunedForBudget: 2, source: 'service' })).toBe(
      ' (contents 40.0 MiB of a 50.0 MiB budget, 2 sessions pruned for the budget)',
    );
  });
});
