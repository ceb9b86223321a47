// `turnback budget [<size>|default] [--workspace X] [--json]`: the workspace's store budget, or sets
// its own (kept in its store across restarts, over the service's --store-budget); `default` clears it.
// `turnback budget --person [<size>|default] [--json]`: the person's budget over all the workspaces.
import { parseArgs } from 'node:util';
import type { PersonBudget, StoreBudget } from '../protocol.js';
import { byteSize } from './args.js';
import { ServiceApi } from './client/api.js';
import { printJson, runCommand, type CommandSpec } from './client/command.js';
import { CliError, EXIT_DONE, EXIT_USAGE } from './client/errors.js';
import { processIo, type Io } from './client/io.js';
import { connectService } from './client/service.js';
import { budgetNote, personBudgetLine } from './status.js';
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

const PERSON_USAGE = 'turnback budget --person [<bytes|NNMiB|NNGiB>|default] [--json]';

const PERSON_SOURCE: Record<PersonBudget['source'], string> = {
  setting: ', set by turnback budget --person',
  service: ", the service's --person-budget",
  none: '',
};

/** The person's budget: shown, or set (kept in the state dir, over --person-budget); no workspace is addressed. */
async function runPerson(args: string[], io: Io): Promise<number> {
  const json = args.includes('--json');
  try {
    let positionals: string[];
    try {
      ({ positionals } = parseArgs({
        args,
        options: { person: { type: 'boolean' }, json: { type: 'boolean' } },
        allowPositionals: true,
        strict: true,
      }));
    } catch (err) {
      throw new CliError(`${(err as Error).message} (usage: ${PERSON_USAGE})`, EXIT_USAGE, 'USAGE');
    }
    if (positionals.length > 1) throw new CliError(`one size at most (usage: ${PERSON_USAGE})`, EXIT_USAGE, 'USAGE');
    const bytes = positionals.length === 1 ? parseBudget(positionals[0]!) : undefined;
    const api = new ServiceApi(await connectService(io.env, io.bin));
    const route = '/api/settings/person-budget';
    const budget =
      bytes === undefined
        ? await api.call<PersonBudget>('GET', route)
        : await api.call<PersonBudget>('POST', route, { bytes });
    if (json) printJson(io, { personBudget: budget });
    else io.out(`${personBudgetLine(budget)}${PERSON_SOURCE[budget.source]}\n`);
    return EXIT_DONE;
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    if (json) printJson(io, { error: { code: err.code, message: err.message, ...err.details } });
    else io.err(`turnback budget: ${err.message}\n`);
    return err.exitCode;
  }
}

export function run(args: string[], io?: Io): Promise<number> {
  if (args.includes('--person')) return runPerson(args, io ?? processIo());
  return runCommand(BUDGET, args, io);
}
