// `turnback share on|off [--prompts] [--remote R] [--json]` and `turnback share` (where it stands):
// whether this repository's own `git push` and `git fetch` carry the turnback notes. Off by default.
import { parseArgs } from 'node:util';
import { GitError } from '../git/git.js';
import { remoteOf, shareOff, shareOn, shareState, type ShareState } from '../git/share.js';

const USAGE_LINE = 'usage: turnback share [on|off] [--prompts] [--remote <name>] [--json]';

export function fail(command: string, json: boolean, code: string, message: string): number {
  if (json) process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
  else process.stderr.write(`turnback ${command}: ${message}\n`);
  return 2;
}

function describe(state: ShareState): string {
  if (!state.on)
    return `sharing is off for ${state.remote}: the turnback notes stay in this clone (turnback share on to share them)\n`;
  return (
    `sharing is on for ${state.remote}: git push and git fetch carry refs/notes/turnback` +
    `${state.prompts ? ', prompts included (secrets masked)' : ', without prompts'}\n`
  );
}

export async function run(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { prompts: { type: 'boolean' }, remote: { type: 'string' }, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
  } catch {
    return fail('share', args.includes('--json'), 'USAGE', USAGE_LINE);
  }
  const { values, positionals } = parsed;
  const json = values.json === true;
  const what = positionals[0];
  if (
    positionals.length > 1 ||
    (what !== undefined && what !== 'on' && what !== 'off') ||
    (values.prompts && what !== 'on')
  )
    return fail('share', json, 'USAGE', USAGE_LINE);
  try {
    const cwd = process.cwd();
    const remote = await remoteOf(cwd, values.remote);
    const state =
      what === 'on'
        ? await shareOn(cwd, remote, values.prompts === true)
        : what === 'off'
          ? await shareOff(cwd, remote)
          : await shareState(cwd, remote);
    process.stdout.write(json ? `${JSON.stringify(state)}\n` : describe(state));
    return 0;
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    return fail('share', json, 'GIT', error.message);
  }
}
