// A commit's change to one file, from git: what a turn of another machine changed, read-only (its
// record is on that machine). It is the commit's whole change to the file, so the sentence above
// it names the lines the turn wrote; any other changed line is another turn's or the person's.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { CommitFileSide } from '../../../server/protocol';
import { useWorkspaceScope } from '../../api/workspaceScope';
import { useIsDark } from '../../app/useTheme';
import { formatBytes } from '../../lib/format';
import { useUiStore } from '../../store';
import { LARGE_DIFF_LINES, lineCount } from '../diff/largeDiff';
import { LazyTextDiff } from '../diff/LazyTextDiff';
import { languageOf } from '../diff/language';
import { useDiffMode } from '../diff/useDiffMode';
import { commitDiffQuery } from './commitDiffQuery';

/** `3,7-9` as "lines 3, 7–9" (`1` as "line 1"). */
export function linesPhrase(ranges: string): string {
  const parts = ranges.split(',').filter(Boolean);
  const single = parts.length === 1 && !parts[0].includes('-');
  return `${single ? 'line' : 'lines'} ${parts.map((part) => part.replace('-', '–')).join(', ')}`;
}

/** What a side that shows no text is, in words; null for a text side (or an absent one, shown empty). */
function sideWords(side: CommitFileSide): string | null {
  if (!side.exists) return null;
  if (side.type === 'submodule') return 'a submodule (its contents are another repository)';
  if (side.type === 'symlink') return `a symlink to ${side.text ?? '(a target that is not text)'}`;
  if (side.binary) return `a binary file (${formatBytes(side.size)})`;
  if (side.tooLarge) return `a file too large to show here (${formatBytes(side.size)}, over 1 MiB)`;
  return null;
}

function absentWords(which: 'before' | 'after', parent: string | null): string {
  if (which === 'after') return 'deleted by this commit';
  return parent ? 'not in the parent commit (added by this commit)' : 'none (the first commit has no parent)';
}

export function CommitFileDiff({ sha, path, ranges }: { sha: string; path: string; ranges: string }) {
  const scope = useWorkspaceScope();
  const diff = useQuery(commitDiffQuery(scope, sha, path));
  const split = useDiffMode() === 'split';
  const wrap = useUiStore((state) => state.wrapLines);
  const dark = useIsDark();
  const [openLarge, setOpenLarge] = useState(false);
  const short = sha.slice(0, 8);

  let body;
  if (diff.isPending)
    body = (
      <p className="pane-empty" role="status">
        Loading the change from git…
      </p>
    );
  else if (diff.isError)
    body = (
      <p className="notice notice--danger" role="alert">
        Could not read the change from git: {diff.error.message}
      </p>
    );
  else {
    const { before, after, parent } = diff.data;
    const words = { before: sideWords(before), after: sideWords(after) };
    const oldText = before.text ?? '';
    const newText = after.text ?? '';
    const lines = Math.max(lineCount(oldText), lineCount(newText));
    if (words.before !== null || words.after !== null)
      body = (
        <p className="commit-diff__plain">
          No line diff to show. Before:{' '}
          {words.before ?? (before.exists ? 'a text file' : absentWords('before', parent))}. After:{' '}
          {words.after ?? (after.exists ? 'a text file' : absentWords('after', parent))}.
        </p>
      );
    else if (before.exists && after.exists && oldText === newText)
      body = <p className="commit-diff__plain">This commit left the file's content as it was.</p>;
    else if (lines > LARGE_DIFF_LINES && !openLarge)
      body = (
        <p className="commit-diff__plain">
          This diff is large: {lines.toLocaleString('en-US')} lines.{' '}
          <button type="button" className="btn btn--small" onClick={() => setOpenLarge(true)}>
            Show the diff
          </button>
        </p>
      );
    else
      body = (
        <>
          {!before.exists && <p className="commit-diff__plain">Before: {absentWords('before', parent)}.</p>}
          {!after.exists && <p className="commit-diff__plain">After: {absentWords('after', parent)}.</p>}
          <div className="commit-diff__body">
            <LazyTextDiff
              oldValue={oldText}
              newValue={newText}
              split={split}
              wrap={wrap}
              dark={dark}
              language={lines > LARGE_DIFF_LINES ? undefined : languageOf(path)}
              virtual={false}
            />
          </div>
        </>
      );
  }

  return (
    <section className="commit-diff" aria-label={`Change to ${path} in ${short}`}>
      <p className="commit-diff__what">
        From git: commit {short}'s change to <code>{path}</code>. This turn wrote {linesPhrase(ranges)} of it; any other
        changed line is another turn's or the person's.
      </p>
      {body}
    </section>
  );
}
