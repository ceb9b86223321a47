// `turnback blame <file> [--json]`: per line, the commit and then the agent turn that wrote it
// (host, title, session), or "person" (or "a turn?" where a turn's note lists only part of its
// files); git blame plus the notes in this clone.
import { GitError } from '../git/git.js';
import { blameFile } from '../provenance/read.js';

const USAGE_LINE = 'usage: turnback blame <file> [--json]';

export async function run(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const files = args.filter((arg) => arg !== '--json');
  if (files.length !== 1 || files[0].startsWith('-')) {
    process.stderr.write(`${USAGE_LINE}\n`);
    return 2;
  }
  let blame;
  try {
    blame = await blameFile(process.cwd(), files[0]);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: 'GIT', message: error.message } })}\n`);
    else process.stderr.write(`turnback blame: ${error.message}\n`);
    return 2;
  }
  if (json) {
    process.stdout.write(`${JSON.stringify(blame)}\n`);
    return 0;
  }
  const width = String(blame.lines.length).length;
  const out = blame.lines.map(({ line, sha, turn, text, unlisted }) => {
    const who = turn
      ? `${turn.host} "${turn.title.slice(0, 40)}" ${turn.session.slice(0, 16)}`
      : unlisted
        ? 'a turn? (its note lists part of its files)'
        : 'person';
    return `${sha.slice(0, 8)} ${who.padEnd(40)} ${String(line).padStart(width)}) ${text}`;
  });
  process.stdout.write(out.length ? `${out.join('\n')}\n` : '');
  return 0;
}
