// `turnback serve`: records the turns of agents in a workspace and serves the console.
import { parseServeFlags } from './args.js';
import { launch } from './launch.js';
import { USAGE, UsageError } from './usage.js';

export async function run(args: string[]): Promise<number> {
  let flags;
  try {
    flags = parseServeFlags(args, 'serve');
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`turnback serve: ${err.message}\n${USAGE}`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  return launch({ flags: { ...flags, workspace: flags.workspace as string } });
}
