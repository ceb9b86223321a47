// Page-wide keys: j/k (or ↓/↑ when nothing is focused) step through turns, n/p through the
// selected turn's files in the order the list displays them. Lists handle their own arrows
// when focused.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useUiStore } from '../store';
import type { ResolvedSelection } from './useSelection';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    (target instanceof HTMLInputElement && target.type !== 'checkbox')
  );
}

function stepped<T>(list: T[], index: number, step: number): T {
  return list[Math.max(0, Math.min(list.length - 1, index < 0 ? 0 : index + step))];
}

export function useKeyboardNavigation(selection: ResolvedSelection): void {
  const latest = useRef(selection);
  // Kept current after each render (not during it): the key handler reads the newest selection.
  useLayoutEffect(() => {
    latest.current = selection;
  });

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      const onBody = event.target === document.body || event.target === document.documentElement;
      const { turns, rows, turnId, fileUri } = latest.current;
      const store = useUiStore.getState();
      const step =
        event.key === 'j' || (onBody && event.key === 'ArrowDown')
          ? 1
          : event.key === 'k' || (onBody && event.key === 'ArrowUp')
            ? -1
            : 0;
      if (step !== 0 && turns.length > 0) {
        store.selectTurn(
          stepped(
            turns,
            turns.findIndex((turn) => turn.turnId === turnId),
            step,
          ).turnId,
          'replace',
        );
        event.preventDefault();
        return;
      }
      const fileStep = event.key === 'n' ? 1 : event.key === 'p' ? -1 : 0;
      if (fileStep !== 0 && rows.length > 0) {
        store.selectFile(
          stepped(
            rows,
            rows.findIndex((row) => row.uri === fileUri),
            fileStep,
          ).uri,
          'replace',
        );
        event.preventDefault();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
