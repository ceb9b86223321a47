// The shell commands of a turn, each with what its scans found it changed and what they could
// not capture (a file too large to keep, one that could not be read, another session's command
// running at the same time, a command that never ended).
import { useState } from 'react';
import { COMMAND_TEXT_LIMIT, type ExecCommand, type ExecSkipped, type ExecSkipReason } from '../../../server/protocol';
import { useCommandText } from '../../api/hooks';
import { displayPath, formatBytes, formatClock, plural } from '../../lib/format';
import { FOLDER_SUMMARY_THRESHOLD } from './folderCounts';
import { FolderSummary } from './FolderSummary';
import { EXEC_CAPTURED_TOOLTIP, EXEC_UNPROTECTED_TOOLTIP } from '../timeline/TurnBadges';

const REASONS: Record<ExecSkipReason, string> = {
  'too-large': 'too large to keep',
  budget: 'larger than the store budget',
  unreadable: 'could not be read',
  excluded: 'excluded',
  concurrent: "another session's command ran at the same time",
  'over-budget': 'not protected: ignored by .gitignore and too large to keep',
};

/** "not protected: … (over 2,000 files, ignored by .gitignore)": where the count stopped, so a lower bound. */
function reasonText(s: ExecSkipped): string {
  if (s.reason !== 'over-budget' || s.files === undefined) return REASONS[s.reason];
  return `not protected (over ${s.files.toLocaleString('en-US')} files or ${formatBytes(s.bytes ?? 0)}, ignored by .gitignore)`;
}

function ChangedPaths({ command }: { command: ExecCommand }) {
  return (
    <ul aria-label={`Paths changed by ${command.command}`}>
      {(command.changed ?? []).map((uri) => (
        <li key={uri}>
          <code>{displayPath(uri)}</code>
        </li>
      ))}
    </ul>
  );
}

function CommandOutcome({ command }: { command: ExecCommand }) {
  if (command.endedAt === null || command.changed === null) {
    return (
      <p className="command__outcome command__outcome--warn">
        Its changes were never scanned: they are not covered by undo.
      </p>
    );
  }
  return (
    <>
      {command.changed.length === 0 ? (
        <p className="command__outcome">Changed nothing in the workspace.</p>
      ) : (
        <details className="command__changed">
          <summary>Changed {plural(command.changed.length, 'path')}</summary>
          {command.changed.length > FOLDER_SUMMARY_THRESHOLD ? (
            <FolderSummary
              uris={command.changed}
              label={`Folders changed by ${command.command}`}
              listAll={() => <ChangedPaths command={command} />}
            />
          ) : (
            <ChangedPaths command={command} />
          )}
        </details>
      )}
      {command.skipped && command.skipped.length > 0 && (
        <ul className="command__skipped" aria-label={`Not captured for ${command.command}`}>
          {command.skipped.map((s) => (
            <li key={`${s.uri}-${s.reason}`}>
              <code>{displayPath(s.uri)}</code>: {reasonText(s)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The command's text: its listed first characters, and the rest (as kept) fetched when asked for. */
function CommandText({ turnId, command }: { turnId: string; command: ExecCommand }) {
  const [open, setOpen] = useState(false);
  const whole = useCommandText(turnId, command.execId, open && command.truncated === true);
  const shown = open && whole.data ? whole.data : command;
  return (
    <div className="command__body">
      <code className={open ? 'command__text command__text--whole' : 'command__text'}>
        {shown.command}
        {shown.truncated && '…'}
      </code>
      {command.truncated && (
        <button
          type="button"
          className="link-button link-button--text"
          onClick={() => setOpen(!open)}
          aria-expanded={open}
        >
          {open ? 'Show less' : `Show the whole command (${formatBytes(command.commandBytes)})`}
        </button>
      )}
      {open && whole.isError && (
        <p className="command__outcome command__outcome--warn">The whole command could not be loaded.</p>
      )}
      {open && shown.truncated && whole.data && (
        <p className="command__outcome">Only its first {formatBytes(COMMAND_TEXT_LIMIT)} are kept.</p>
      )}
    </div>
  );
}

export function ExecCommands({
  turnId,
  commands,
  captured,
}: {
  turnId: string;
  commands: ExecCommand[];
  captured: boolean;
}) {
  if (commands.length === 0) return <p className="pane-empty">No shell commands ran in this turn.</p>;
  return (
    <div>
      <p className={captured ? 'notice' : 'notice notice--warn'}>
        {captured ? EXEC_CAPTURED_TOOLTIP : EXEC_UNPROTECTED_TOOLTIP}
      </p>
      <ol className="commands" aria-label="Shell commands of this turn">
        {commands.map((command, index) => (
          <li key={command.execId ?? `${command.at}-${index}`} className="command">
            <div className="command__line">
              <span className="command__tool">{command.tool}</span>
              <CommandText turnId={turnId} command={command} />
              <time dateTime={command.at}>{formatClock(command.at)}</time>
            </div>
            <CommandOutcome command={command} />
          </li>
        ))}
      </ol>
    </div>
  );
}
