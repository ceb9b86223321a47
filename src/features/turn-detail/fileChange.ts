// How a FileChange reads in the console.
import type { FileChange, SkipReason, State } from '../../../server/protocol';
import { displayPath } from '../../lib/format';

export const SKIP_REASONS: Record<SkipReason, string> = {
  'too-large': 'too large',
  budget: 'over the budget',
  excluded: 'excluded',
  unreadable: 'unreadable',
};

export const SKIP_HELP: Record<SkipReason, string> = {
  'too-large': 'Larger than the size limit: recorded without its content, so undo cannot restore it',
  budget: 'Larger on its own than the store budget: recorded without its content, so undo cannot restore it',
  excluded: 'Matches an exclude pattern (such as node_modules/**): not recorded, so undo cannot restore it',
  unreadable: 'Could not be read when recorded: undo cannot restore it',
};

/** The kind of change, with the mode's change when the permission bits moved too (a `chmod` with an edit). */
export function changeLabel(file: FileChange): string {
  const kind = changeKindLabel(file);
  return file.change !== 'mode-changed' && modeChanged(file) ? `${kind} · ${modeChangeText(file)}` : kind;
}

function changeKindLabel(file: FileChange): string {
  switch (file.change) {
    case 'created':
      return 'created';
    case 'modified':
      return 'modified';
    case 'deleted':
      return 'deleted';
    case 'renamed':
      return 'renamed';
    case 'moved':
      return 'moved';
    case 'dir-created':
      return 'folder created';
    case 'dir-deleted':
      return 'folder deleted';
    case 'mode-changed':
      return modeChangeText(file);
  }
}

/** Both sides are files (or both folders) whose permission bits differ. */
export function modeChanged(file: FileChange): boolean {
  const { before, after } = file;
  if (!before || !after || before.type === 'symlink' || after.type === 'symlink' || before.type !== after.type)
    return false;
  return (before.mode & 0o7777) !== (after.mode & 0o7777);
}

function modeChangeText(file: FileChange): string {
  return `mode ${modeText(file.before)} → ${modeText(file.after)}`;
}

function modeText(state: State): string {
  return state && 'mode' in state ? (state.mode & 0o7777).toString(8) : '—';
}

export function stateSize(state: State): number {
  return state?.type === 'file' ? state.size : 0;
}

/** What a restore of this path writes back: the before-state, or nothing when the turn created it. */
export function restoreSize(file: FileChange): number {
  return stateSize(file.before);
}

export function isDirectoryChange(file: FileChange): boolean {
  return (
    file.change === 'dir-created' ||
    file.change === 'dir-deleted' ||
    file.before?.type === 'dir' ||
    file.after?.type === 'dir'
  );
}

export function fromText(file: FileChange): string | null {
  return file.from ? `from ${displayPath(file.from)}` : null;
}
