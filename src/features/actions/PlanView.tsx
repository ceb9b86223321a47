// What a rollback will do, read from its preview Plan.
import type { Plan } from '../../../server/protocol';
import { displayPath, plural } from '../../lib/format';
import { MessageList } from '../turn-detail/ChatMessages';
import { RESTORE_ERROR_TEXT } from './dialogText';
import { PathList } from './PathList';

export function PlanView({ plan, conflicts, showMessages }: { plan: Plan; conflicts: string[]; showMessages: boolean }) {
  const restore = plan.actions.filter((action) => action.action === 'restore').map((action) => displayPath(action.uri));
  const remove = plan.actions.filter((action) => action.action === 'delete').map((action) => displayPath(action.uri));
  const moveBack = plan.actions
    .filter((action) => action.action === 'move-back')
    .map((action) => (action.from ? `${displayPath(action.from)} → ${displayPath(action.uri)}` : displayPath(action.uri)));
  const untouched = plan.actions.filter((action) => action.action === 'none').length;
  const nothingToDo = restore.length + remove.length + moveBack.length === 0;

  return (
    <div className="plan">
      {nothingToDo && (
        <p className="notice">Every file is already as it was before: there is nothing to restore.</p>
      )}
      <PathList title="Restore to their earlier content" items={restore} />
      <PathList title="Delete (did not exist before)" items={remove} />
      <PathList title="Move back" items={moveBack} />
      {untouched > 0 && <p className="muted">{plural(untouched, 'path')} already in place.</p>}
      <PathList title="Changed since the turn (conflicts)" items={conflicts.map(displayPath)} tone="warn" />
      <PathList
        title="Cannot be restored"
        items={plan.unrestorable.map((item) => `${displayPath(item.uri)} — ${RESTORE_ERROR_TEXT[item.code] ?? item.code} (${item.code})`)}
        tone="danger"
      />
      {showMessages && (
        <section className="plan-group plan-group--danger" aria-label="Messages to delete">
          <h3>
            Chat messages to delete <span className="pane-count">{plan.messages.length}</span>
          </h3>
          {plan.messages.length === 0 ? (
            <p className="muted">No messages.</p>
          ) : (
            <MessageList messages={plan.messages} label="Messages that will be deleted" />
          )}
        </section>
      )}
    </div>
  );
}
