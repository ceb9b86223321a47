// The same prompt's turns in other projects (Turn.linked): one small line, each a link to that
// workspace's turn; rolling this turn back takes them back too.
import type { Turn } from '../../../server/protocol';

const projectName = (root: string) => root.split('/').filter(Boolean).pop() ?? root;

export function LinkedTurns({ turn }: { turn: Turn }) {
  const linked = turn.linked ?? [];
  if (linked.length === 0) return null;
  return (
    <span className="relations" title="Rolled back together with this turn">
      Also changed{' '}
      {linked.map((link, index) => {
        const query = new URLSearchParams({ workspace: link.workspaceId, session: turn.sessionId, turn: link.turnId });
        return (
          <span key={`${link.workspaceId}:${link.turnId}`}>
            {index > 0 && ', '}
            <a href={`?${query.toString()}`}>{projectName(link.root)}</a>
          </span>
        );
      })}
    </span>
  );
}
