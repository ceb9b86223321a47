// The frame every terminal command shares: its flags (each takes --json and --help), the
// service and the cwd's workspace, one-line errors (or `{error}` with --json) and exit codes.
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError, EXIT_DONE, EXIT_USAGE } from './errors.js';
import { processIo, type Io } from './io.js';
import { connectService } from './service.js';
import { openWorkspace, type WorkspaceClient } from './workspace.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface CommandContext {
  io: Io;
  ws: WorkspaceClient;
  json: boolean;
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
  /** Where each flag and positional stood, for a flag that takes a list (`--files a b c`). */
  tokens: ArgToken[];
}

export type ArgToken =
  | { kind: 'option'; name: string; index: number }
  | { kind: 'positional'; value: string; index: number }
  | { kind: 'option-terminator'; index: number };

export interface CommandSpec {
  name: string;
  /** One usage line, e.g. `turnback show <turn> [--session S] [--json]`. */
  usage: string;
  options: Options;
  /** Positionals: at least `min`, at most `max`. */
  positionals: { min: number; max: number };
  run(context: CommandContext): Promise<number>;
}

const SHARED: Options = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } };

/** Writes a value as one JSON document on stdout. */
export function printJson(io: Io, value: unknown): void {
  io.out(`${JSON.stringify(value, null, 2)}\n`);
}

export async function runCommand(spec: CommandSpec, args: string[], io: Io = processIo()): Promise<number> {
  const json = args.includes('--json');
  const fail = (err: CliError): number => {
    if (json) printJson(io, { error: { code: err.code, message: err.message, ...err.details } });
    else io.err(`turnback ${spec.name}: ${err.message}\n`);
    if (!json && err.exitCode === EXIT_USAGE && err.code === 'USAGE') io.err(`usage: ${spec.usage}\n`);
    return err.exitCode;
  };
  let parsed: { values: CommandContext['values']; positionals: string[]; tokens: ArgToken[] };
  try {
    parsed = parseArgs({
      args,
      options: { ...SHARED, ...spec.options },
      allowPositionals: true,
      strict: true,
      tokens: true,
    }) as typeof parsed;
  } catch (err) {
    return fail(new CliError((err as Error).message, EXIT_USAGE, 'USAGE'));
  }
  if (parsed.values.help === true) {
    io.out(`usage: ${spec.usage}\n`);
    return EXIT_DONE;
  }
  const count = parsed.positionals.length;
  if (count < spec.positionals.min || count > spec.positionals.max) {
    return fail(
      new CliError(
        count < spec.positionals.min
          ? 'missing argument'
          : `unexpected argument ${JSON.stringify(parsed.positionals[spec.positionals.max])}`,
        EXIT_USAGE,
        'USAGE',
      ),
    );
  }
  try {
    // A command that takes `--workspace <path>` addresses that workspace instead of the cwd's.
    const at = typeof parsed.values.workspace === 'string' ? path.resolve(io.cwd, parsed.values.workspace) : io.cwd;
    const ws = await openWorkspace(await connectService(io.env, io.bin), at);
    return await spec.run({
      io,
      ws,
      json,
      values: parsed.values,
      positionals: parsed.positionals,
      tokens: parsed.tokens,
    });
  } catch (err) {
    if (err instanceof CliError) return fail(err);
    throw err;
  }
}
