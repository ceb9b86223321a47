// The workspace's Commits view: each commit with the agent turns that wrote it, teammates' included
// (read from the git notes). Opened from the header; pages of 50, more on demand.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useWorkspaceScope } from '../../api/workspaceScope';
import { Modal } from '../actions/Modal';
import { CommitRow } from './CommitRow';
import { commitsQuery } from './commitsQuery';

function CommitsDialog({ onClose }: { onClose: () => void }) {
  const scope = useWorkspaceScope();
  const commits = useInfiniteQuery(commitsQuery(scope));
  const pages = commits.data?.pages ?? [];
  const list = pages.flatMap((page) => page.commits);
  return (
    <Modal
      title="Commits"
      onClose={onClose}
      wide
      footer={
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
      }
    >
      {commits.isPending && <p>Loading commits…</p>}
      {commits.isError && (
        <p className="notice notice--danger" role="alert">
          Could not read the commits: {commits.error.message}
        </p>
      )}
      {pages[0]?.repository === false && <p>This workspace is in no git repository.</p>}
      {commits.isSuccess && pages[0]?.repository !== false && list.length === 0 && <p>No commits yet.</p>}
      <ul className="commit-list" aria-label="Commits">
        {list.map((commit) => (
          <CommitRow key={commit.sha} commit={commit} />
        ))}
      </ul>
      {commits.hasNextPage && (
        <button
          type="button"
          className="btn btn--small"
          disabled={commits.isFetchingNextPage}
          onClick={() => void commits.fetchNextPage()}
        >
          {commits.isFetchingNextPage ? 'Loading…' : 'More commits'}
        </button>
      )}
    </Modal>
  );
}

export function CommitsButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn--small header-commits"
        title="The repository's commits and the agent turns that wrote them"
        onClick={() => setOpen(true)}
      >
        Commits
      </button>
      {open && <CommitsDialog onClose={() => setOpen(false)} />}
    </>
  );
}
