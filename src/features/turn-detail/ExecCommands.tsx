import type { ExecCommand } from '../../../server/protocol';
import { formatClock } from '../../lib/format';
import { EXEC_TOOLTIP } from '../timeline/TurnBadges';

export function ExecCommands({ commands }: { commands: ExecCommand[] }) {
  if (commands.length === 0) return <p className="pane-empty">No shell commands ran in this turn.</p>;
  return (
    <div>
      <p className="notice notice--warn">{EXEC_TOOLTIP}</p>
      <ol className="commands" aria-label="Shell commands of this turn">
        {commands.map((command, index) => (
          <li key={`${command.at}-${index}`} className="command">
            <span className="command__tool">{command.tool}</span>
            <code className="command__text">{command.command}</code>
            <time dateTime={command.at}>{formatClock(command.at)}</time>
          </li>
        ))}
      </ol>
    </div>
  );
}
