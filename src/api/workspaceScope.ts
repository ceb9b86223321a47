// Which workspace the console's data calls address. A chosen workspace's calls go to
// `/api/workspaces/:workspaceId/…`; before one is chosen (`null`), to the unprefixed routes,
// which address the server's default workspace (docs/api.md "Workspaces").
import { useUiStore } from '../store';

export type WorkspaceScope = string | null;

/** `/api` or `/api/workspaces/<id>`: the base of a workspace's console routes. */
export function apiBase(scope: WorkspaceScope): string {
  return scope === null ? '/api' : `/api/workspaces/${encodeURIComponent(scope)}`;
}

/** The workspace the person chose (the `workspace` of the address), null for the default one. */
export function useWorkspaceScope(): WorkspaceScope {
  return useUiStore((state) => state.workspaceId);
}
