import { useTurnMessages } from '../../api/hooks';
import { formatClock } from '../../lib/format';
import type { Message } from '../../../server/protocol';

export function MessageList({ messages, label }: { messages: Message[]; label: string }) {
  return (
    <ol className="messages" aria-label={label}>
      {messages.map((message) => (
        <li key={message.id} className={`message message--${message.role}`}>
          <div className="message__head">
            <span className="message__role">{message.role}</span>
            <time dateTime={new Date(message.ts).toISOString()}>{formatClock(message.ts)}</time>
          </div>
          <div className="message__body">{message.content}</div>
        </li>
      ))}
    </ol>
  );
}

export function ChatMessages({ sessionId, turnId, live }: { sessionId: string; turnId: string; live: boolean }) {
  const { data, isPending, isError, error } = useTurnMessages(sessionId, turnId, live);
  if (isPending)
    return (
      <p className="pane-empty" role="status">
        Loading messages…
      </p>
    );
  if (isError)
    return (
      <p className="pane-empty pane-empty--error" role="alert">
        Could not load messages: {error.message}
      </p>
    );
  if (data.length === 0) return <p className="pane-empty">No chat messages belong to this turn.</p>;
  return <MessageList messages={data} label="Chat messages of this turn" />;
}
