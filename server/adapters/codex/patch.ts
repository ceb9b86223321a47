// The files a Codex `apply_patch` will touch, read from its patch (Codex's hook hands the patch
// over as `tool_input.command`), so each is recorded before the patch runs, with no scan:
//
//   *** Begin Patch
//   *** Add File: <path>          (then `+` lines)
//   *** Delete File: <path>
//   *** Update File: <path>       (then an optional `*** Move to: <path>` and `@@` hunks)
//   *** End Patch
//
// Paths are relative to the cwd or absolute. A patch whose header lines cannot be read gives
// null: the caller then scans around the tool instead, so nothing it changes goes unrecorded.

const BEGIN = '*** Begin Patch';
const FILE_HEADER = /^\*\*\* (Add File|Delete File|Update File|Move to): (.+)$/;

/** Every path the patch adds, deletes, updates or moves from and to, in order, once each; null when it is no patch. */
export function patchPaths(patch: string): string[] | null {
  const lines = patch.split(/\r?\n/);
  const begin = lines.findIndex((line) => line.trim() === BEGIN);
  if (begin < 0) return null;
  const paths: string[] = [];
  for (const line of lines.slice(begin + 1)) {
    // Hunk lines start with ' ', '+', '-' or '@@', so a header cannot come from inside one.
    const header = FILE_HEADER.exec(line.trimEnd());
    if (header === null) continue;
    const path = header[2].trim();
    if (path === '') return null;
    if (!paths.includes(path)) paths.push(path);
  }
  return paths.length > 0 ? paths : null;
}
