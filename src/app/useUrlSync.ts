// Keeps the zustand selection and the address bar in step, both ways.
import { useEffect } from 'react';
import { useUiStore } from '../store';
import { searchFromSelection, selectionFromSearch } from './url';

export function useUrlSync(): void {
  useEffect(() => {
    const store = useUiStore;
    store.getState().restoreSelection(selectionFromSearch(window.location.search));

    const unsubscribe = store.subscribe((state, previous) => {
      if (state.sessionId === previous.sessionId && state.turnId === previous.turnId && state.fileUri === previous.fileUri) return;
      const search = searchFromSelection(state);
      if (search === window.location.search) return;
      const url = `${window.location.pathname}${search}`;
      if (state.history === 'replace') window.history.replaceState(null, '', url);
      else window.history.pushState(null, '', url);
    });

    const onPopState = () => store.getState().restoreSelection(selectionFromSearch(window.location.search));
    window.addEventListener('popstate', onPopState);
    return () => {
      unsubscribe();
      window.removeEventListener('popstate', onPopState);
    };
  }, []);
}
