// `turnback serve`: the person's service in the foreground (systemd, containers, tests).
// `--workspace` registers that workspace and makes it the default one.
import { runService } from '../service/run-service.js';
import { serveFlagsOrExit } from './args.js';

export async function run(args: string[]): Promise<number> {
  const flags = serveFlagsOrExit(args, 'serve');
  if (typeof flags === 'number') return flags;
  return runService(flags);
}
