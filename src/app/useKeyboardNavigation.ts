// Page-wide keys: j/k (or ↓/↑ when nothing is focused) step through turns, n/p through the
// selected turn's files. Lists handle their own arrows when focused.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { manifestQuery } from '../api/queries';
import { useUiStore } from '../store';
import { useSessionTurns } from '../features/timeline/useSessionTurns';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLTextAreaElement || (target instanceof HTMLInputElement && target.type !== 'checkbox');
}

export function useKeyboardNavigation(): void {
  const sessionId = useUiStore((state) => state.sessionId);
  const turnId = useUiStore((state) => state.turnId);
  const { turns } = useSessionTurns(sessionId);
  const { data: manifest } = useQuery({ ...manifestQuery(turnId ?? ''), enabled: turnId !== null });
  const latest = useRef({ turns, files: manifest?.files ?? [] });
  latest.current = { turns, files: manifest?.files ?? [] };

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      const onBody = event.target === document.body || event.target === document.documentElement;
      const state = useUiStore.getState();
      const { turns: list, files } = latest.current;
      const step = (event.key === 'j' || (onBody && event.key === 'ArrowDown')) ? 1
        : (event.key === 'k' || (onBody && event.key === 'ArrowUp')) ? -1 : 0;
      if (step !== 0 && list.length > 0) {
        const index = list.findIndex((turn) => turn.turnId === state.turnId);
        const next = Math.max(0, Math.min(list.length - 1, index < 0 ? 0 : index + step));
        state.selectTurn(list[next].turnId, 'replace');
        event.preventDefault();
        return;
      }
      const fileStep = event.key === 'n' ? 1 : event.key === 'p' ? -1 : 0;
      if (fileStep !== 0 && files.length > 0) {
        const index = files.findIndex((file) => file.uri === state.fileUri);
        const next = Math.max(0, Math.min(files.length - 1, index < 0 ? 0 : index + fileStep));
        state.selectFile(files[next].uri, 'replace');
        event.preventDefault();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
