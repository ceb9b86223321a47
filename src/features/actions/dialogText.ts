import type { RestoreErrorCode } from '../../../server/protocol';
import type { RollbackMode } from '../../api/mutations';
import { plural } from '../../lib/format';

/** "step 3", "steps 2, 4". */
export function stepsText(steps: number[]): string {
  return `${steps.length === 1 ? 'step' : 'steps'} ${steps.join(', ')}`;
}

export function dialogTitle(mode: RollbackMode, turnNumber: number, fileCount: number, steps: number[] = []): string {
  switch (mode) {
    case 'steps':
      return `Undo ${stepsText(steps)} of turn #${turnNumber}`;
    case 'turn':
      return `Undo turn #${turnNumber}`;
    case 'files':
      return `Undo ${plural(fileCount, 'file')} of turn #${turnNumber}`;
    case 'chat':
      return `Undo turn #${turnNumber} and its chat`;
    case 'rewind':
      return `Rewind to turn #${turnNumber}`;
    case 'undo':
      return `Redo: take back undo #${turnNumber}`;
  }
}

export function confirmLabel(mode: RollbackMode, fileCount: number, steps: number[] = []): string {
  switch (mode) {
    case 'steps':
      return `Undo ${stepsText(steps)}`;
    case 'turn':
      return 'Undo turn';
    case 'files':
      return `Undo ${plural(fileCount, 'file')}`;
    case 'chat':
      return 'Undo turn and its chat';
    case 'rewind':
      return 'Rewind';
    case 'undo':
      return 'Redo';
  }
}

export const EXTERNAL_AGENT_NOTE =
  "This session belongs to an external agent. Only turnback's copy of the chat is deleted: the agent's own context is not rewound and it still remembers these messages.";

/** Why a path cannot be put back, for the codes of docs/api.md's Result.errors. */
export const RESTORE_ERROR_TEXT: Record<RestoreErrorCode, string> = {
  TOO_LARGE: 'too large to have been recorded',
  EXCLUDED: 'excluded from recording',
  UNRESTORABLE: 'its recorded content is missing or damaged',
  SYMLINK: 'a link or directory now stands where the file goes',
  NOT_EMPTY: 'the directory holds files the turn did not make',
  CHANGED: 'it changed while the undo ran, so it was left as it is',
  IO: 'the file system refused',
};
