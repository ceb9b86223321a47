// `turnback explain [<commit|range>] [--json]`: the agent turns behind each commit, read from
// the notes in this clone (docs/api.md "Provenance"): host, title, prompt if shared, files and counts.
import { GitError } from '../git/git.js';
import type { NoteTurn } from '../protocol.js';
import { commitsWithTurns } from '../provenance/read.js';
import { countRanges } from '../provenance/line-origins.js';

const USAGE_LINE = 'usage: turnback explain [<commit|range>] [--json]';

export function describeTurn(turn: NoteTurn): string[] {
  const lines = [`  ${turn.host}  "${turn.title}"  turn ${turn.id}  session ${turn.session}  ${turn.at}`];
  if (turn.prompt !== undefined) lines.push(...turn.prompt.split('\n').map((l) => `    > ${l}`));
  for (const [file, ranges] of Object.entries(turn.files)) {
    const count = countRanges(ranges);
    lines.push(`    ${file}  ${count} line${count === 1 ? '' : 's'} (${ranges})`);
  }
  if (turn.moreFiles) lines.push(`    … and ${turn.moreFiles} more files`);
  return lines;
}

export async function run(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const revs = args.filter((arg) => arg !== '--json');
  if (revs.length > 1 || revs.some((r) => r.startsWith('-'))) {
    process.stderr.write(`${USAGE_LINE}\n`);
    return 2;
  }
  let commits;
  try {
    commits = await commitsWithTurns(process.cwd(), revs[0] ?? 'HEAD');
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: 'GIT', message: error.message } })}\n`);
    else process.stderr.write(`turnback explain: ${error.message}\n`);
    return 2;
  }
  if (json) {
    process.stdout.write(`${JSON.stringify({ commits })}\n`);
    return 0;
  }
  const out: string[] = [];
  for (const commit of commits) {
    out.push(`${commit.sha.slice(0, 12)}  ${commit.subject}  (${commit.author}, ${commit.at})`);
    if (commit.turns.length === 0) out.push("  no agent turn: the person's (or recorded by no turnback)");
    for (const turn of commit.turns) out.push(...describeTurn(turn));
  }
  process.stdout.write(out.length ? `${out.join('\n')}\n` : 'no commits\n');
  return 0;
}
