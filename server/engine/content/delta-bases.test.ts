// The packer's memo of turns' entries: an ended turn the last pass used is not read again by the
// next, however many entries it has; when packing stops, the memo goes back down.
import { describe, expect, it } from 'vitest';
import type { Store } from '../db/store.js';
import { TurnMemo } from './delta-bases.js';

function storeOf(turns: Record<string, number>): { store: Store; reads: string[] } {
  const reads: string[] = [];
  const entries = (turnId: string) =>
    Array.from({ length: turns[turnId] }, (_, i) => ({
      uri: `workspace:/f${i}`,
      toUri: null,
      before: null,
      after: { type: 'file', hash: `${turnId}-${i}`, size: 1, mode: 0o644 },
      toBefore: null,
      toAfter: null,
    }));
  const store = {
    turns: { get: (turnId: string) => ({ turnId, endedAt: '2026-12-07T00:00:00.000Z', sessionId: 's', number: 1 }) },
    entries: {
      of: (turnId: string) => {
        reads.push(turnId);
        return entries(turnId);
      },
    },
  } as unknown as Store;
  return { store, reads };
}

describe('TurnMemo', () => {
  it('keeps a 5,000-entry turn the last pass used for the next pass, and lets it go once a pass uses none', () => {
    const { store, reads } = storeOf({ big: 5_000 });
    const memo = new TurnMemo(store);
    for (let pass = 0; pass < 3; pass++) {
      memo.nextPass();
      expect(memo.of('big').nearestOf('big-7')).toEqual([null]);
    }
    expect(reads).toEqual(['big']);
    // Packing stopped: a pass that used nothing, and the memo keeps no more than an idle one does.
    memo.nextPass();
    memo.nextPass();
    memo.of('big');
    expect(reads).toEqual(['big', 'big']);
  });

  it('still drops a large turn the last pass did not use', () => {
    const { store, reads } = storeOf({ big: 5_000, other: 10 });
    const memo = new TurnMemo(store);
    memo.of('big');
    memo.nextPass();
    memo.of('other');
    memo.nextPass();
    memo.of('big');
    expect(reads).toEqual(['big', 'other', 'big']);
  });

  it('reads each of two large turns once in a pass that goes back and forth between them (a turn and its undo)', () => {
    const { store, reads } = storeOf({ turn: 12_000, undo: 12_000 });
    const memo = new TurnMemo(store);
    memo.nextPass();
    for (let content = 0; content < 3; content++) {
      memo.of('turn').nearestOf(`turn-${content}`);
      memo.of('undo').nearestOf(`undo-${content}`);
    }
    expect(reads).toEqual(['turn', 'undo']);
  });
});
