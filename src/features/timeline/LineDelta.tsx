// "+added −removed" as the console shows it everywhere: a timeline row, the turn detail's
// header and each file row.

export function lineDeltaText(added: number, removed: number): string {
  return `${added} lines added, ${removed} removed`;
}

interface LineDeltaProps {
  added: number;
  removed: number;
  className?: string;
  /** Off where an enclosing label already says it (a timeline row). */
  labelled?: boolean;
}

export function LineDelta({ added, removed, className = 'file-row__lines', labelled = true }: LineDeltaProps) {
  return (
    <span className={className} aria-label={labelled ? lineDeltaText(added, removed) : undefined}>
      <span className="plus">+{added}</span> <span className="minus">−{removed}</span>
    </span>
  );
}
