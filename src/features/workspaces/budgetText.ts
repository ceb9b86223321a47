// What the console says of a store against its budget (docs/api.md "Store budget"): the contents
// kept (what the budget counts) of the budget, and the sessions pruned to keep to it.
import type { PersonBudget, StoreBudget } from '../../../server/protocol';
import { formatBytes, plural } from '../../lib/format';

const SOURCE: Record<StoreBudget['source'], string> = {
  workspace: "this workspace's own budget (turnback budget)",
  service: "the service's --store-budget",
  default: 'the default budget: the larger of 2 GiB and 10x the workspace',
};

/** "contents 3 MiB of a 2 GiB budget, 2 sessions pruned for it"; null while the workspace is not open. */
export function budgetText(budget: StoreBudget | undefined): string | null {
  if (!budget) return null;
  const pruned = budget.prunedForBudget > 0 ? `, ${plural(budget.prunedForBudget, 'session')} pruned for it` : '';
  return `contents ${formatBytes(budget.used)} of a ${formatBytes(budget.bytes)} budget${pruned}`;
}

/** The header's short form, "3.0 MiB of a 2.0 GiB budget, 2 pruned": the card and the tooltip carry the sentence. */
export function budgetShortText(budget: StoreBudget | undefined): string | null {
  if (!budget) return null;
  const pruned = budget.prunedForBudget > 0 ? `, ${budget.prunedForBudget} pruned` : '';
  return `${formatBytes(budget.used)} of a ${formatBytes(budget.bytes)} budget${pruned}`;
}

/** The tooltip: where the size comes from, and what pruning means. */
export function budgetHelp(budget: StoreBudget): string {
  return `The file versions kept, as stored, against ${SOURCE[budget.source]}. Over it, the oldest sessions without a pin are pruned.`;
}

/** The card's own line for the sessions pruned for the person's budget over all workspaces (not this one's); null when none were. */
export function personPrunedText(budget: StoreBudget | undefined): string | null {
  const pruned = budget?.prunedForPersonBudget ?? 0;
  return pruned > 0 ? `${plural(pruned, 'session')} pruned for your budget over all workspaces` : null;
}

/** The header tooltip's words on the person's budget, when one is set; '' otherwise. */
export function personBudgetHelp(person: PersonBudget | undefined): string {
  if (!person || person.bytes === null) return '';
  return ` Your budget over all workspaces: contents ${formatBytes(person.used)} of ${formatBytes(person.bytes)} over ${plural(person.workspaces, 'workspace')}, ${plural(person.prunedForPersonBudget, 'session')} pruned for it; over it, the oldest session of any workspace is pruned (turnback budget --person).`;
}
