// The status badges of a turn, shared by the timeline row and the turn detail header.
import type { Turn } from '../../../server/protocol';
import type { TurnOf } from './turnNames';

export const EXEC_CAPTURED_TOOLTIP =
  'Shell commands ran in this turn. The workspace was scanned before and after each one, so undoing the turn undoes the files they changed; ' +
  'what they did outside it (global packages, databases, the network) is not undone.';
export const EXEC_UNPROTECTED_TOOLTIP =
  'Shell commands ran in this turn and some of what they changed was not captured (see Steps): that part is not covered by undo.';
const INTERRUPTED_TOOLTIP = 'The server stopped during this turn; its end state was read from disk on restart.';

interface Badge {
  key: string;
  text: string;
  tone: 'live' | 'pin' | 'rollback' | 'rolled-back' | 'partial' | 'danger' | 'warn' | 'quiet';
  title?: string;
}

function rollbackOfLabel(turn: Turn, turnOf: TurnOf): string {
  const numbers = (turn.rollbackOf ?? [])
    .map((turnId) => turnOf(turnId)?.number)
    .filter((n): n is number => n !== undefined)
    .sort((a, b) => a - b);
  if (numbers.length === 0) return 'undo';
  // The undo of an undo is a redo: its badge names the undo it takes back.
  if (numbers.length === 1)
    return turnOf(turn.rollbackOf![0])?.kind === 'rollback' ? `takes back #${numbers[0]}` : `undo of #${numbers[0]}`;
  return `rewind to #${numbers[0]} (${numbers.length} turns)`;
}

export function turnBadges(turn: Turn, turnOf: TurnOf): Badge[] {
  const badges: Badge[] = [];
  if (turn.status === 'active') badges.push({ key: 'live', text: 'live', tone: 'live' });
  if (turn.kind === 'pin')
    badges.push({
      key: 'pin',
      text: 'pin',
      tone: 'pin',
      title: 'A point marked by hand: rewind to it to take every later turn back',
    });
  if (turn.kind === 'rollback') badges.push({ key: 'rollback', text: rollbackOfLabel(turn, turnOf), tone: 'rollback' });
  if (turn.status === 'rolled-back') badges.push({ key: 'rolled-back', text: 'undone', tone: 'rolled-back' });
  if (turn.status === 'partially-rolled-back') badges.push({ key: 'partial', text: 'partly undone', tone: 'partial' });
  if (turn.interrupted)
    badges.push({ key: 'interrupted', text: 'interrupted', tone: 'danger', title: INTERRUPTED_TOOLTIP });
  if (turn.execUsed && turn.execCaptured)
    badges.push({ key: 'exec', text: 'shell changes captured', tone: 'quiet', title: EXEC_CAPTURED_TOOLTIP });
  else if (turn.execUsed)
    badges.push({ key: 'exec', text: 'partially unprotected', tone: 'warn', title: EXEC_UNPROTECTED_TOOLTIP });
  return badges;
}

export function TurnBadges({ turn, turnOf }: { turn: Turn; turnOf: TurnOf }) {
  return (
    <span className="badges">
      {turnBadges(turn, turnOf).map((badge) => (
        <span key={badge.key} className={`badge badge--${badge.tone}`} title={badge.title}>
          {badge.tone === 'live' && <span className="live-dot" aria-hidden="true" />}
          {badge.text}
        </span>
      ))}
    </span>
  );
}
