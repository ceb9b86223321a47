// Command-line flags of `serve` and `demo`, checked before anything starts.
import { parseArgs } from 'node:util';
import { USAGE, UsageError } from './usage.js';

export const DEFAULT_PORT = 4820;
export const DEFAULT_SCOPES = [
  'webui:*',
  'antigravity:*',
  'claude-code:*',
  'codex:*',
  'copilot:*',
  'cursor:*',
  'gemini:*',
  'opencode:*',
];

export interface ServeFlags {
  workspace?: string;
  data?: string;
  /** Where the service keeps its own files (registry, sessions, tokens, service.json, lock); see serviceStateDir. */
  stateDir?: string;
  port: number;
  /** `--port` given: a taken port is then an error, not a reason to take another. */
  portGiven: boolean;
  token?: string;
  agentToken?: string;
  tokenFile?: string;
  agentTokenFile?: string;
  /** Which tokens came as flags, readable by other users in the process list (a warning says so). */
  tokensOnCommandLine: string[];
  scopes: string[];
  maxFileSize?: number;
  keepDays?: number;
  keepSessions?: number;
  /** The store budget in bytes (`--store-budget`); undefined keeps the engine's default. */
  storeBudget?: number;
  /** The person's budget over all the workspaces in bytes (`--person-budget`); a setting kept in the state dir goes over it. */
  personBudget?: number;
  /** Globs relative to the workspace; undefined keeps the engine's default. */
  exclude?: string[];
  /** Ignored folders protected whatever their size; undefined protects none beyond the budget. */
  protect?: string[];
  help: boolean;
}

const COMMON = {
  workspace: { type: 'string' },
  data: { type: 'string' },
  port: { type: 'string' },
  token: { type: 'string' },
  'agent-token': { type: 'string' },
  'token-file': { type: 'string' },
  'agent-token-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SERVE_ONLY = {
  scopes: { type: 'string' },
  'max-file-size': { type: 'string' },
  'keep-days': { type: 'string' },
  'keep-sessions': { type: 'string' },
  'store-budget': { type: 'string' },
  'person-budget': { type: 'string' },
  'state-dir': { type: 'string' },
  exclude: { type: 'string', multiple: true },
  protect: { type: 'string', multiple: true },
} as const;

const UNITS: Record<string, number> = { '': 1, MIB: 1024 ** 2, GIB: 1024 ** 3 };

/** A size as `--store-budget` takes it: bytes, or a whole number of MiB or GiB (`512MiB`, `4GiB`). */
export function byteSize(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const match = /^([0-9]+)\s*(MiB|GiB)?$/i.exec(raw.trim());
  const bytes = match ? Number(match[1]) * UNITS[(match[2] ?? '').toUpperCase()]! : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1)
    throw new UsageError(`--${name} must be a positive number of bytes, or of MiB or GiB (as 512MiB or 4GiB)`);
  return bytes;
}

function integer(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

function nonEmpty(name: string, raw: string | undefined): string | undefined {
  if (raw !== undefined && raw.length === 0) throw new UsageError(`--${name} must not be empty`);
  return raw;
}

/** Tokens travel in a Bearer header and a URL: visible ASCII only. */
function token(name: string, raw: string | undefined): string | undefined {
  if (raw !== undefined && !/^[\x21-\x7e]{1,512}$/.test(raw)) {
    throw new UsageError(`--${name} must be 1-512 visible ASCII characters`);
  }
  return raw;
}

function relativeGlobs(flag: 'exclude' | 'protect', raw: string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  for (const glob of raw)
    if (glob.trim() === '' || glob.startsWith('/'))
      throw new UsageError(`--${flag} takes a glob relative to the workspace, not ${JSON.stringify(glob)}`);
  return raw;
}

export function parseScopes(raw: string): string[] {
  return raw
    .split(',')
    .map((scope) => scope.trim())
    .filter((scope) => scope.length > 0);
}

/**
 * Parses the flags of `serve` (all of them) or `demo` (no scopes, size or retention flags).
 * `serve` without `--workspace` is the service with no default workspace.
 */
export function parseServeFlags(
  args: string[],
  command: 'serve' | 'demo',
  env: NodeJS.ProcessEnv = process.env,
): ServeFlags {
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: command === 'serve' ? { ...COMMON, ...SERVE_ONLY } : COMMON,
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const get = (name: string) => values[name] as string | undefined;
  const flags: ServeFlags = {
    workspace: nonEmpty('workspace', get('workspace')),
    data: nonEmpty('data', get('data')),
    stateDir: nonEmpty('state-dir', get('state-dir')),
    port: integer('port', get('port'), 0, 65535) ?? DEFAULT_PORT,
    portGiven: get('port') !== undefined,
    // A flag first, then a file, then the environment.
    token: token(
      'token',
      get('token') ?? (get('token-file') === undefined ? env.TURNBACK_TOKEN || undefined : undefined),
    ),
    agentToken: token(
      'agent-token',
      get('agent-token') ?? (get('agent-token-file') === undefined ? env.TURNBACK_AGENT_TOKEN || undefined : undefined),
    ),
    tokenFile: nonEmpty('token-file', get('token-file')),
    agentTokenFile: nonEmpty('agent-token-file', get('agent-token-file')),
    tokensOnCommandLine: ['token', 'agent-token'].filter((name) => get(name) !== undefined).map((name) => `--${name}`),
    scopes: get('scopes') === undefined ? DEFAULT_SCOPES : parseScopes(get('scopes') as string),
    maxFileSize: integer('max-file-size', get('max-file-size'), 1, Number.MAX_SAFE_INTEGER),
    keepDays: integer('keep-days', get('keep-days'), 0, 36_500),
    keepSessions: integer('keep-sessions', get('keep-sessions'), 0, 1_000_000),
    storeBudget: byteSize('store-budget', get('store-budget')),
    personBudget: byteSize('person-budget', get('person-budget')),
    exclude: relativeGlobs('exclude', values.exclude as string[] | undefined),
    protect: relativeGlobs('protect', values.protect as string[] | undefined),
    help: values.help === true,
  };
  for (const [flag, file] of [
    ['token', 'token-file'],
    ['agent-token', 'agent-token-file'],
  ]) {
    if (get(flag) !== undefined && get(file) !== undefined)
      throw new UsageError(`--${flag} and --${file} cannot both be given`);
  }
  return flags;
}

/**
 * The flags of `serve` or `demo`, or the exit code when the command ends here: 2 after a
 * usage error (written to stderr with the usage), 0 after `--help` (usage on stdout).
 */
export function serveFlagsOrExit(args: string[], command: 'serve' | 'demo'): ServeFlags | number {
  let flags: ServeFlags;
  try {
    flags = parseServeFlags(args, command);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`turnback ${command}: ${err.message}\n${USAGE}`);
    return 2;
  }
  if (flags.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  return flags;
}
