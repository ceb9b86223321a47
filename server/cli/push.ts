// `turnback push [--remote R] [--json]`: sends this clone's turnback notes to the remote (merging theirs first when it moved).
import { GitError } from '../git/git.js';
import { pushNotes, remoteOf } from '../git/share.js';
import { fail } from './share.js';

const USAGE_LINE = 'usage: turnback push [--remote <name>] [--json]';

export async function run(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const rest = args.filter((arg) => arg !== '--json');
  const named = rest[0] === '--remote' && rest.length === 2 ? rest[1] : undefined;
  if (rest.length !== 0 && named === undefined) return fail('push', json, 'USAGE', USAGE_LINE);
  try {
    const remote = await remoteOf(process.cwd(), named);
    await pushNotes(process.cwd(), remote);
    process.stdout.write(json ? `${JSON.stringify({ ok: true, remote })}\n` : `turnback notes pushed to ${remote}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    return fail('push', json, 'GIT', error.message);
  }
}
