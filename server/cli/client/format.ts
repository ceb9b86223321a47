// Plain-text forms of turns, plans and results for the terminal (--json prints the service's own shapes).
import type { FileChange, Plan, RollbackResult, Turn } from '../../protocol.js';
import type { Paint } from './io.js';

export type Display = (uri: string) => string;

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Local time as `2026-12-02 14:05`, the width `git log --date=short` readers expect plus the minute. */
export function shortTime(iso: string | null): string {
  if (!iso) return '';
  const at = new Date(iso);
  return `${at.getFullYear()}-${pad2(at.getMonth() + 1)}-${pad2(at.getDate())} ${pad2(at.getHours())}:${pad2(at.getMinutes())}`;
}

export function turnBadges(turn: Turn): string[] {
  const badges: string[] = [];
  if (turn.status === 'active') badges.push('active');
  if (turn.kind === 'rollback') badges.push('undo');
  if (turn.kind === 'pin') badges.push(turn.pinned === true ? 'pin' : 'unpinned');
  if (turn.status === 'rolled-back') badges.push('undone');
  if (turn.status === 'partially-rolled-back') badges.push('partly undone');
  if (turn.interrupted) badges.push('interrupted');
  if (turn.execUsed) badges.push(turn.execCaptured ? 'shell' : 'shell, not all scanned');
  if (turn.skippedCount > 0) badges.push(`${turn.skippedCount} skipped`);
  return badges;
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Files as the console counts them: a rename or move is one file, not its two paths. */
export function shownFileCount(turn: Turn): number {
  return turn.fileCount - (turn.renameCount ?? 0);
}

/** A folder's own change (made, removed, renamed), as the console tells it from a file's. */
const isFolder = (file: FileChange) =>
  file.change === 'dir-created' ||
  file.change === 'dir-deleted' ||
  file.before?.type === 'dir' ||
  file.after?.type === 'dir';

/** A turn's files as the console lists them: a rename or move is one row (its origin's "deleted" folded in). */
export function fileRows(files: FileChange[]): FileChange[] {
  const origins = new Set(files.filter((file) => file.from).map((file) => file.from));
  return files.filter((file) => !(origins.has(file.uri) && file.after === null));
}

/** "3 files · 1 folder", as the console's turn header says it. */
export function rowCounts(rows: FileChange[]): string {
  const folders = rows.filter(isFolder).length;
  return `${plural(rows.length - folders, 'file')}${folders > 0 ? ` · ${plural(folders, 'folder')}` : ''}`;
}

/** One `log` line: number, id, time, title, files, +/− lines, badges. */
export function turnLine(turn: Turn, p: Paint, idLength: number, sessionTag?: string): string {
  const parts = [
    p.yellow(`#${turn.number}`.padEnd(4)),
    p.dim(turn.turnId.slice(0, idLength)),
    ...(sessionTag ? [p.dim(sessionTag)] : []),
    shortTime(turn.startedAt),
    turn.title === '' ? p.dim('(no title)') : turn.title,
    p.dim(plural(shownFileCount(turn), 'file')),
    `${p.green(`+${turn.lines.added}`)} ${p.red(`−${turn.lines.removed}`)}`,
  ];
  const badges = turnBadges(turn);
  if (badges.length > 0) parts.push(p.cyan(badges.map((badge) => `[${badge}]`).join(' ')));
  return parts.join('  ');
}

/**
 * What an undo with its chat does to the chat, said where it happens: turnback's record of it
 * loses the messages; the host's own transcript keeps them, so the agent still remembers them.
 */
export function chatRemoved(count: number, done: string): string {
  return `${plural(count, 'chat message')} ${done} from turnback's record of the chat (the agent's own transcript keeps ${count === 1 ? 'it' : 'them'}: the agent still remembers)`;
}

/** Past this many lines a preview or a result is summed up by folder (`--verbose` lists every path). */
export const SUMMARY_THRESHOLD = 50;

/**
 * Lines of `kind  path` summed up by folder: `kind  N paths in folder/`, each folder's count,
 * most first. Lines that are not one path (conflicts, failures, chat) are kept whole.
 */
export function summariseByFolder(lines: string[], verbose: boolean): string[] {
  if (verbose || lines.length <= SUMMARY_THRESHOLD) return lines;
  const groups = new Map<string, number>();
  const kept: string[] = [];
  for (const line of lines) {
    const match = /^ {2}(restore|remove|move back|restored|removed|moved back) +(\S.*)$/.exec(line);
    if (!match || match[2].includes(' -> ')) {
      kept.push(line);
      continue;
    }
    const slash = match[2].lastIndexOf('/');
    const key = `${match[1]}\0${slash < 0 ? './' : match[2].slice(0, slash + 1)}`;
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  const summary = [...groups.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, count]) => {
      const [kind, folder] = key.split('\0');
      return `  ${kind.padEnd(10)} ${plural(count, 'path')} in ${folder}`;
    });
  return [...summary, ...kept, `  (${plural(lines.length, 'line')} summed up by folder; --verbose lists every path)`];
}

/** What a preview will do, one path a line, each conflict with the turn behind it. */
export function planLines(plan: Plan, p: Paint, show: Display): string[] {
  const lines: string[] = [];
  for (const action of plan.actions) {
    if (action.action === 'none' && !action.conflict) continue;
    if (action.action === 'keep-both' && action.copy) {
      // Not a refusal: the conflict is answered by keeping the path and writing the restored version beside it.
      lines.push(p.yellow(`  keep both  ${show(action.uri)} stays, the restored version goes to ${show(action.copy)}`));
      continue;
    }
    const what =
      action.action === 'restore'
        ? 'restore'
        : action.action === 'delete'
          ? 'remove'
          : action.action === 'move-back'
            ? 'move back'
            : 'keep';
    const where =
      action.action === 'move-back' && action.from ? `${show(action.from)} -> ${show(action.uri)}` : show(action.uri);
    let line = `  ${what.padEnd(10)} ${where}`;
    if (action.conflict) {
      const by = action.conflictStep
        ? `changed again by step ${action.conflictStep.index} ${JSON.stringify(action.conflictStep.title)} of this turn`
        : action.conflictTurn
          ? `changed since by turn #${action.conflictTurn.number} ${JSON.stringify(action.conflictTurn.title)}`
          : 'changed since outside any turn';
      line = p.red(`${line}   conflict: ${by}`);
    }
    lines.push(line);
  }
  for (const folder of plan.folders ?? []) {
    if (!folder.implied)
      lines.push(`  ${(folder.action === 'create' ? 'mkdir' : 'rmdir').padEnd(10)} ${show(folder.uri)}/`);
  }
  for (const item of plan.unrestorable) lines.push(p.red(`  cannot     ${show(item.uri)} (${item.code})`));
  if (plan.messages.length > 0) lines.push(`  and ${chatRemoved(plan.messages.length, 'to be removed')}`);
  if (lines.length === 0) lines.push('  nothing to change: every path is already as it was');
  return lines;
}

/** What a rollback did. */
export function resultLines(result: RollbackResult, p: Paint, show: Display): string[] {
  const copies = new Set((result.keptBoth ?? []).map((kept) => kept.copy));
  const lines = [
    ...result.restored.filter((uri) => !copies.has(uri)).map((uri) => `  restored   ${show(uri)}`),
    ...(result.keptBoth ?? []).map(
      (kept) => `  kept both  ${show(kept.uri)} (as it was) and ${show(kept.copy)} (restored)`,
    ),
    ...result.deleted.map((uri) => `  removed    ${show(uri)}`),
    ...result.movedBack.map((move) => `  moved back ${show(move.from)} -> ${show(move.to)}`),
    ...result.errors.map((error) => p.red(`  failed     ${show(error.uri)} (${error.code}: ${error.message})`)),
  ];
  if (result.deletedMessages) lines.push(`  ${chatRemoved(result.deletedMessages, 'removed')}`);
  const unchanged = result.unchanged.length;
  if (unchanged > 0)
    lines.push(p.dim(`  ${unchanged === 1 ? '1 path already as it was' : `${unchanged} paths already as they were`}`));
  return lines;
}

/** After an undo: git's index still holds what the agent staged for these paths, or was made to take them as they are. */
export function gitIndexLines(gitIndex: { staged: string[]; added: boolean }, p: Paint, show: Display): string[] {
  const paths = gitIndex.staged.map((name) => `    ${show(name)}`);
  if (gitIndex.added)
    return [`  git's index now takes ${plural(gitIndex.staged.length, 'path')} as they are (git add -A):`, ...paths];
  return [
    p.yellow(
      `  git's index is out of step: it still holds what was staged for ${plural(gitIndex.staged.length, 'path')} (git status shows them); --git-add stages them as they are now:`,
    ),
    ...paths,
  ];
}
