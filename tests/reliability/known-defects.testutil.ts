// Defects found by these suites and still open, each pinned by its own `it.fails` test. A
// sweep counts the problems they explain apart (reported, not failed), so it keeps guarding
// everything else; once a defect is fixed its entry goes and the pinning test turns green.
export interface KnownDefect {
  id: string;
  /** Where it lives and what happens. */
  summary: string;
  explains: (problem: string) => boolean;
}

export const KNOWN_DEFECTS: KnownDefect[] = [];

/** Splits a sweep's problems into those a known defect explains and the rest. */
export function splitKnown(problems: string[]): { known: Map<string, number>; unexplained: string[] } {
  const known = new Map<string, number>();
  const unexplained: string[] = [];
  for (const problem of problems) {
    const defect = KNOWN_DEFECTS.find((d) => d.explains(problem));
    if (defect) known.set(defect.id, (known.get(defect.id) ?? 0) + 1);
    else unexplained.push(problem);
  }
  return { known, unexplained };
}
