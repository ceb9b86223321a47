// `turnback pull [--remote R] [--json]`: fetches the remote's turnback notes and merges them into this clone's (each side's turns kept).
import { GitError } from '../git/git.js';
import { pullNotes, remoteOf } from '../git/share.js';
import { fail } from './share.js';

const USAGE_LINE = 'usage: turnback pull [--remote <name>] [--json]';

export async function run(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const rest = args.filter((arg) => arg !== '--json');
  const named = rest[0] === '--remote' && rest.length === 2 ? rest[1] : undefined;
  if (rest.length !== 0 && named === undefined) return fail('pull', json, 'USAGE', USAGE_LINE);
  try {
    const remote = await remoteOf(process.cwd(), named);
    await pullNotes(process.cwd(), remote);
    process.stdout.write(json ? `${JSON.stringify({ ok: true, remote })}\n` : `turnback notes pulled from ${remote}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    return fail('pull', json, 'GIT', error.message);
  }
}
