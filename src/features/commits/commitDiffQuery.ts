// A commit's change to one path, read from git by the service (docs/api.md "/api/commits/:sha/diff"):
// a commit never changes, so the answer is kept for the page's life.
import { queryOptions } from '@tanstack/react-query';
import type { CommitFileDiffResponse } from '../../../server/protocol';
import { apiGet, apiPath } from '../../api/client';
import { keys } from '../../api/keys';
import { apiBase, type WorkspaceScope } from '../../api/workspaceScope';

export const commitDiffQuery = (scope: WorkspaceScope, sha: string, path: string) =>
  queryOptions({
    queryKey: keys.in(scope).commitDiff.of(sha, path),
    queryFn: () => apiGet<CommitFileDiffResponse>(apiPath(`${apiBase(scope)}/commits/${sha}/diff`, { path })),
    staleTime: Infinity,
  });
