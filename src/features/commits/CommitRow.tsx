// One commit and the agent turns its note names: host, title, session, files and line counts.
// A turn recorded on another machine is read-only here: its change is the commit's own diff in git,
// which each file opens below it (a local turn's too, the same way).
import { useState } from 'react';
import type { CommitSummary, CommitTurn } from '../../../server/protocol';
import { CommitFileDiff } from './CommitFileDiff';

function countLines(ranges: string): number {
  let count = 0;
  for (const part of ranges.split(',')) {
    if (!part) continue;
    const [a, b] = part.split('-').map(Number);
    count += (b ?? a) - a + 1;
  }
  return count;
}

function TurnFile({ sha, file, ranges }: { sha: string; file: string; ranges: string }) {
  const [open, setOpen] = useState(false);
  const short = sha.slice(0, 8);
  return (
    <li className="commit-turn__file">
      <button
        type="button"
        className="commit-turn__file-button"
        aria-expanded={open}
        aria-label={`Diff of ${file} in ${short}`}
        title={open ? 'Hide the change' : `Show commit ${short}'s change to ${file}, from git`}
        onClick={() => setOpen(!open)}
      >
        <span className="commit-turn__file-caret" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <code>{file}</code> {countLines(ranges)} ({ranges})
      </button>
      {open && <CommitFileDiff sha={sha} path={file} ranges={ranges} />}
    </li>
  );
}

function TurnLine({ sha, turn }: { sha: string; turn: CommitTurn }) {
  return (
    <li className="commit-turn" data-local={turn.local}>
      <div className="commit-turn__head">
        <span className="commit-turn__host">{turn.host}</span>
        <span className="commit-turn__title">{turn.title || '(no title)'}</span>
        <span
          className="commit-turn__where"
          title={
            turn.local
              ? 'Recorded by this machine: its turn is in the timeline, with its diff and undo'
              : 'Recorded on another machine: read-only here (its change is this commit in git; undo stays with that machine)'
          }
        >
          {turn.local ? 'this machine' : 'another machine · read-only'}
        </span>
      </div>
      <div className="commit-turn__meta">
        {[
          `session ${turn.session}`,
          turn.model && `model ${turn.model}`,
          new Date(turn.at).toLocaleString(),
          `${turn.lines} line${turn.lines === 1 ? '' : 's'}`,
        ]
          .filter(Boolean)
          .join(' · ')}
      </div>
      <ul className="commit-turn__files">
        {Object.entries(turn.files).map(([file, ranges]) => (
          <TurnFile key={file} sha={sha} file={file} ranges={ranges} />
        ))}
        {turn.moreFiles ? <li>… and {turn.moreFiles} more files</li> : null}
      </ul>
      {turn.prompt !== undefined && <pre className="commit-turn__prompt">{turn.prompt}</pre>}
    </li>
  );
}

export function CommitRow({ commit }: { commit: CommitSummary }) {
  return (
    <li className="commit-row" data-sha={commit.sha}>
      <div className="commit-row__head">
        <code className="commit-row__sha">{commit.sha.slice(0, 8)}</code>
        <span className="commit-row__subject">{commit.subject}</span>
        <span className="commit-row__meta">
          {commit.author} · {new Date(commit.at).toLocaleString()}
        </span>
      </div>
      {commit.turns.length === 0 ? (
        <div className="commit-row__person">No agent turn: the person's</div>
      ) : (
        <ul className="commit-row__turns" aria-label={`Turns of ${commit.sha.slice(0, 8)}`}>
          {commit.turns.map((turn) => (
            <TurnLine key={turn.id} sha={commit.sha} turn={turn} />
          ))}
        </ul>
      )}
    </li>
  );
}
