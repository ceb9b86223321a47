// `turnback status [--json]`: the service's pid and URL, and each workspace with its sessions,
// store size, whether it records (and why not), its index while it is not whole, and a
// filesystem watcher that failed (its commands then cost a walk of the whole tree), is degraded,
// or missed changes.
import type { IndexBuildStatus, PersonBudget, WatcherStatus, Workspace, WorkspacesResponse } from '../protocol.js';
import { consoleUrl, getJson, liveConsole, NO_SERVICE } from './service-client.js';

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GiB`;
}

/**
 * The contents kept (their size as stored, what the budget counts; the store's size on disk beside
 * it also holds the records and the index) against the budget while the workspace is open, and the
 * sessions pruned to keep to it.
 */
export function budgetNote(budget: Workspace['budget']): string {
  if (!budget) return '';
  const pruned = budget.prunedForBudget
    ? `, ${budget.prunedForBudget} session${budget.prunedForBudget === 1 ? '' : 's'} pruned for the budget`
    : '';
  const forPerson = budget.prunedForPersonBudget
    ? `, ${budget.prunedForPersonBudget} session${budget.prunedForPersonBudget === 1 ? '' : 's'} pruned for the person budget`
    : '';
  return ` (contents ${size(budget.used)} of a ${size(budget.bytes)} budget${pruned}${forPerson})`;
}

/** The person's budget over all the workspaces: the contents kept (as last known) against it, and the sessions pruned for it. */
export function personBudgetLine(budget: PersonBudget): string {
  const over = `over ${budget.workspaces} workspace${budget.workspaces === 1 ? '' : 's'}`;
  if (budget.bytes === null) return `person budget: none (contents ${size(budget.used)} ${over})`;
  const pruned = `${budget.prunedForPersonBudget} session${budget.prunedForPersonBudget === 1 ? '' : 's'} pruned for it`;
  return `person budget: contents ${size(budget.used)} of ${size(budget.bytes)} ${over}, ${pruned}`;
}

/** The index while it is not whole: how far its background build is, or why there is none. */
export function indexNote(index: IndexBuildStatus | undefined): string {
  if (!index || index.state === 'whole') return '';
  const files = index.filesFound.toLocaleString('en-US');
  if (index.state === 'building') return `, indexing ${files} files…, ${index.percent}%`;
  if (index.state === 'failed')
    return `, index not built: ${index.reason ?? 'unknown reason'} (its first command scans the whole tree)`;
  return ', index part-built (the build resumes at the next start)';
}

/**
 * Said only when the watcher was asked for and failed (every command then walks the whole tree),
 * is degraded (part of the tree unwatched now), or missed changes a full scan then found.
 */
export function watcherNote(watcher: WatcherStatus | undefined): string {
  const misses = watcher?.misses ? `, ${watcher.misses} watcher miss${watcher.misses === 1 ? '' : 'es'}` : '';
  if (watcher?.state === 'degraded')
    return `, watcher degraded: ${watcher.reason ?? 'part of the tree is not watched'}${misses}`;
  if (watcher?.state !== 'unavailable') return misses;
  return `, every command scanned in full: ${watcher.reason ?? 'the filesystem watcher is unavailable'}${misses}`;
}

function line(workspace: Workspace): string {
  const recording = workspace.recording ? 'recording' : `NOT recording: ${workspace.reason ?? 'unknown reason'}`;
  const state = `${recording}${indexNote(workspace.index)}${watcherNote(workspace.watcher)}`;
  const sessions = `${workspace.sessions} session${workspace.sessions === 1 ? '' : 's'}`;
  return `  ${workspace.name}  ${workspace.root}  ${sessions}, ${size(workspace.storeBytes)}${budgetNote(workspace.budget)}, ${state}${workspace.isDefault ? ' (default)' : ''}`;
}

export async function run(args: string[]): Promise<number> {
  const json = args.includes('--json');
  if (args.some((arg) => arg !== '--json')) {
    process.stderr.write('usage: turnback status [--json]\n');
    return 2;
  }
  const target = liveConsole();
  if (!target) {
    if (json) process.stdout.write(`${JSON.stringify({ running: false })}\n`);
    else process.stderr.write(`turnback: ${NO_SERVICE}\n`);
    return 2;
  }
  const { workspaces } = await getJson<WorkspacesResponse>(target, '/api/workspaces');
  // A service from before the person budget has no such route: its line is left out.
  const personBudget = await getJson<PersonBudget>(target, '/api/settings/person-budget').catch(() => undefined);
  const { pid, port, version, startedAt } = target.entry;
  if (json) {
    process.stdout.write(
      `${JSON.stringify({ running: true, pid, port, version, startedAt, url: consoleUrl(target), workspaces, personBudget })}\n`,
    );
    return 0;
  }
  process.stdout.write(`turnback ${version} running (pid ${pid}) at ${consoleUrl(target)}\n`);
  process.stdout.write(
    workspaces.length === 0
      ? 'no workspaces yet\n'
      : `${workspaces.length} workspace${workspaces.length === 1 ? '' : 's'}:\n${workspaces.map(line).join('\n')}\n`,
  );
  // Only once one is set: with none, each workspace's line already says all there is.
  if (personBudget && personBudget.bytes !== null) process.stdout.write(`${personBudgetLine(personBudget)}\n`);
  return 0;
}
