// A workspace's own store budget (`turnback budget`, POST /api/workspaces/:id/budget): kept in the
// store's meta table so it holds across restarts, and over the service's --store-budget.
import type { Statements } from './statements.js';

const KEY = 'store_budget';

/** The budget set for this workspace in bytes, or null when none is (the service's, else the default). */
export function readBudgetSetting(store: Statements): number | null {
  const row = store.st('SELECT value FROM meta WHERE key = ?').get(KEY) as { value: string } | undefined;
  const bytes = row === undefined ? NaN : Number(row.value);
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : null;
}

/** Sets (a positive whole number of bytes) or clears (null) the workspace's own budget. */
export function writeBudgetSetting(store: Statements, bytes: number | null): void {
  if (bytes === null) store.st('DELETE FROM meta WHERE key = ?').run(KEY);
  else store.st('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(KEY, String(bytes));
}
