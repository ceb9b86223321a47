// The workspace on screen: the chosen one, else the server's default one, else none (a
// server without workspaces). When the service has workspaces but no default, the first is
// chosen, so the unprefixed routes (which would answer WORKSPACE_REQUIRED) are never asked.
import { useEffect } from 'react';
import { useWorkspaces } from '../../api/hooks';
import type { Workspace } from '../../../server/protocol';
import { useUiStore } from '../../store';

export interface CurrentWorkspace {
  workspaces: Workspace[];
  current: Workspace | undefined;
}

export function useCurrentWorkspace(): CurrentWorkspace {
  const { data: workspaces = [] } = useWorkspaces();
  const chosen = useUiStore((state) => state.workspaceId);
  const current =
    chosen === null
      ? workspaces.find((workspace) => workspace.isDefault)
      : workspaces.find((workspace) => workspace.id === chosen);
  return { workspaces, current };
}

/** Chooses the first workspace when nothing is chosen and the service names no default. */
export function useWorkspaceFallback(): void {
  const { workspaces } = useCurrentWorkspace();
  const chosen = useUiStore((state) => state.workspaceId);
  const first =
    chosen === null && workspaces.length > 0 && !workspaces.some((workspace) => workspace.isDefault)
      ? workspaces[0].id
      : null;
  useEffect(() => {
    if (first) useUiStore.getState().selectWorkspace(first, 'replace');
  }, [first]);
}
