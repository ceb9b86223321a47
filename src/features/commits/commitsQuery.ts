// The workspace's commits with the agent turns their notes name, a page at a time (docs/api.md
// "Provenance"): the first page alone is fetched on open, so 5,000 commits cost one page.
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { CommitsResponse } from '../../../server/protocol';
import { apiGet } from '../../api/client';
import { keys } from '../../api/keys';
import { apiBase, type WorkspaceScope } from '../../api/workspaceScope';

export const COMMIT_PAGE_SIZE = 50;

export const commitsQuery = (scope: WorkspaceScope) =>
  infiniteQueryOptions({
    queryKey: keys.in(scope).commits.all,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      apiGet<CommitsResponse>(
        `${apiBase(scope)}/commits?limit=${COMMIT_PAGE_SIZE}${pageParam ? `&before=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    getNextPageParam: (last) => last.next,
  });
