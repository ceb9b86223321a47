// A titled list of paths, as plans and results show them.
export function PathList({ title, items, tone }: { title: string; items: string[]; tone?: 'danger' | 'warn' }) {
  if (items.length === 0) return null;
  return (
    <section className={`plan-group${tone ? ` plan-group--${tone}` : ''}`} aria-label={title}>
      <h3>
        {title} <span className="pane-count">{items.length}</span>
      </h3>
      <ul>
        {items.map((item) => (
          <li key={item}>
            <code>{item}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
