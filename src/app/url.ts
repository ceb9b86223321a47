// The selection lives in the query string (`/?workspace=…&session=…&turn=…&file=…`) so a link can be shared.
import type { Selection } from '../store';

export function selectionFromSearch(search: string): Selection {
  const params = new URLSearchParams(search);
  return {
    workspaceId: params.get('workspace') || null,
    sessionId: params.get('session') || null,
    turnId: params.get('turn') || null,
    fileUri: params.get('file') || null,
  };
}

export function searchFromSelection(selection: Selection): string {
  const params = new URLSearchParams();
  if (selection.workspaceId) params.set('workspace', selection.workspaceId);
  if (selection.sessionId) params.set('session', selection.sessionId);
  if (selection.turnId) params.set('turn', selection.turnId);
  if (selection.fileUri) params.set('file', selection.fileUri);
  const text = params.toString();
  return text ? `?${text}` : '';
}
