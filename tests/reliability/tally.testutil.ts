// What each suite tried, for the summary table of `npm run test:reliability`. Vitest runs
// every file in its own process, so each suite appends one JSON line to a shared file.
import { appendFileSync } from 'node:fs';

export interface Tally {
  cases: number;
  crashPoints: number;
  faults: number;
  requests: number;
  failures: number;
  notes: string[];
}

export function newTally(): Tally {
  return { cases: 0, crashPoints: 0, faults: 0, requests: 0, failures: 0, notes: [] };
}

/** Appends the suite's counts to $TURNBACK_RELIABILITY_TALLY when the runner asked for it. */
export function writeTally(suite: string, tally: Tally): void {
  const file = process.env.TURNBACK_RELIABILITY_TALLY;
  if (!file) return;
  appendFileSync(file, JSON.stringify({ suite, ...tally }) + '\n');
}
