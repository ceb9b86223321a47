// A titled list of paths, as plans and results show them. An item may carry details (a diff)
// that open in place, one click away.
import { useState, type ReactNode } from 'react';
import { FOLDER_SUMMARY_THRESHOLD } from '../turn-detail/folderCounts';
import { FolderSummary } from '../turn-detail/FolderSummary';

export interface PathItem {
  /** The item's path (a workspace uri), unique in its list. */
  key: string;
  label: ReactNode;
  /** What "Show" opens below the item, and what the button says. */
  detail?: { open: string; render: () => ReactNode };
  /** A choice offered on the item itself (a conflict's "Keep both"). */
  action?: { label: string; title?: string; ariaLabel?: string; run: () => void };
}

function Item({ item }: { item: PathItem }) {
  const [open, setOpen] = useState(false);
  return (
    <li>
      <code>{item.label}</code>
      {item.detail && (
        <>
          {' '}
          <button
            type="button"
            className="link-button link-button--text"
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide' : item.detail.open}
          </button>
          {open && <div className="plan-detail">{item.detail.render()}</div>}
        </>
      )}
      {item.action && (
        <>
          {' '}
          <button
            type="button"
            className="btn btn--small"
            title={item.action.title}
            aria-label={item.action.ariaLabel ?? item.action.label}
            onClick={item.action.run}
          >
            {item.action.label}
          </button>
        </>
      )}
    </li>
  );
}

export function PathList({
  title,
  items,
  tone,
  note,
}: {
  title: string;
  items: (string | PathItem)[];
  tone?: 'danger' | 'warn';
  note?: string;
}) {
  if (items.length === 0) return null;
  // Items named by their path (a PathItem's key) are summed up by folder when there are many.
  const uris = items.every((item) => typeof item !== 'string') ? items.map((item) => item.key) : [];
  const list = () => (
    <ul>
      {items.map((item) =>
        typeof item === 'string' ? (
          <Item key={item} item={{ key: item, label: item }} />
        ) : (
          <Item key={item.key} item={item} />
        ),
      )}
    </ul>
  );
  return (
    <section className={`plan-group${tone ? ` plan-group--${tone}` : ''}`} aria-label={title}>
      <h3>
        {title} <span className="pane-count">{items.length}</span>
      </h3>
      {note && <p className="muted plan-group__note">{note}</p>}
      {uris.length > FOLDER_SUMMARY_THRESHOLD ? (
        <FolderSummary uris={uris} label={`${title}: folders`} listAll={list} />
      ) : (
        list()
      )}
    </section>
  );
}
