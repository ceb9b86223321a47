// Keeps the zustand selection and the address bar in step, both ways.
import { useEffect, useState } from 'react';
import { useUiStore } from '../store';
import { searchFromSelection, selectionFromSearch } from './url';

export function useUrlSync(): void {
  // The address is read before anything renders below: a link's workspace decides which
  // routes the very first queries ask, so none may start from an empty selection.
  // A lazy state initializer runs once, during the first render, before any child renders.
  useState(() => {
    useUiStore.getState().restoreSelection(selectionFromSearch(window.location.search));
    return true;
  });

  useEffect(() => {
    const store = useUiStore;
    const unsubscribe = store.subscribe((state, previous) => {
      if (
        state.workspaceId === previous.workspaceId &&
        state.sessionId === previous.sessionId &&
        state.turnId === previous.turnId &&
        state.fileUri === previous.fileUri
      )
        return;
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
