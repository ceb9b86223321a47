// `turnback serve`: records the turns of agents in a workspace and serves the console.
import { serveFlagsOrExit } from './args.js';
import { launch } from './launch.js';

export async function run(args: string[]): Promise<number> {
  const flags = serveFlagsOrExit(args, 'serve');
  if (typeof flags === 'number') return flags;
  return launch({ flags: { ...flags, workspace: flags.workspace as string } });
}
