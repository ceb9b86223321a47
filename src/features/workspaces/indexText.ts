// What the console says of a workspace's index while it is not whole (docs/api.md
// IndexBuildStatus): how far its background build is, or why there is none. Whole says nothing.
import type { IndexBuildStatus } from '../../../server/protocol';

export function indexText(index: IndexBuildStatus | undefined): string | null {
  if (!index || index.state === 'whole') return null;
  if (index.state === 'building')
    return `Indexing ${index.filesFound.toLocaleString('en-US')} files… ${index.percent}%`;
  if (index.state === 'failed') return `Index not built${index.reason ? `: ${index.reason}` : ''}`;
  return 'Index part-built (resumed at the next start)';
}

/** While a build runs the list is asked again this often, so its progress moves. */
export const INDEX_POLL_MS = 1_000;
