// `turnback budget [<size>|default] [--workspace X] [--json]`: the workspace's store budget, or sets
// its own (kept in its store across restarts, over the service's --store-budget); `default` clears it.
import type { StoreBudget } from '../protocol.js';
import { byteSize } from './args.js';
import { printJson, runCommand, type CommandSpec } from './client/command.js';
import { CliError, EXIT_DONE, EXIT_USAGE } from './client/errors.js';
import type { Io } from './client/io.js';
import { budgetNote } from './status.js';
import { UsageError } from './usage.js';

const SOURCE: Record<StoreBudget['source'], string> = {
  workspace: "this workspace's own",
  service: "the service's --store-budget",
  default: 'the default, the larger of 2 GiB and 10x the workspace',
};

/** `<bytes|NNMiB|NNGiB>` in bytes, or null for `default`. */
function parseBudget(raw: string): number | null {
  if (raw === 'default') return null;
  try {
    return byteSize('store-budget', raw)!;
  } catch (e) {
    if (e instanceof UsageError)
      throw new CliError(
        'the budget must be a positive number of bytes, of MiB or GiB (as 512MiB or 4GiB), or default',
        EXIT_USAGE,
        'USAGE',
      );
    throw e;
  }
}

export const BUDGET: CommandSpec = {
  name: 'budget',
  usage: 'turnback budget [<bytes|NNMiB|NNGiB>|default] [--workspace <path>] [--json]',
  options: { workspace: { type: 'string' } },
  positionals: { min: 0, max: 1 },
  async run({ io, ws, json, positionals }) {
    const budget =
      positionals.length === 0 ? (await ws.store()).budget : await ws.setBudget(parseBudget(positionals[0]!));
    if (json) printJson(io, { workspace: ws.workspace.root, budget });
    else io.out(`${ws.workspace.root}: store budget${budgetNote(budget)}, ${SOURCE[budget.source]}\n`);
    return EXIT_DONE;
  },
};

export function run(args: string[], io?: Io): Promise<number> {
  return runCommand(BUDGET, args, io);
}
