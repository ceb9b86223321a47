// The person's budget over all their workspaces as set by `turnback budget --person` or the
// console: kept in the state dir's person-budget.json (0600), over the service's --person-budget.
import { rmSync } from 'node:fs';
import { statePathIn } from '../state-dir.js';
import { readPrivateFile, writePrivateFile } from './private-file.js';

/** The budget set in `stateDir` in bytes, or null when none is (a missing or unreadable file included). */
export function readPersonBudgetSetting(stateDir: string): number | null {
  try {
    const raw = JSON.parse(readPrivateFile(statePathIn(stateDir, 'personBudget'))) as { bytes?: unknown };
    return typeof raw.bytes === 'number' && Number.isSafeInteger(raw.bytes) && raw.bytes > 0 ? raw.bytes : null;
  } catch {
    return null;
  }
}

/** Sets (a positive whole number of bytes) or clears (null: back to the flag's, else none) the setting. */
export function writePersonBudgetSetting(stateDir: string, bytes: number | null): void {
  const file = statePathIn(stateDir, 'personBudget');
  if (bytes === null) rmSync(file, { force: true });
  else writePrivateFile(file, `${JSON.stringify({ bytes })}\n`);
}
