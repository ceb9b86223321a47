// Command-line flags of `serve` and `demo`, checked before anything starts.
import { parseArgs } from 'node:util';
import { USAGE, UsageError } from './usage.js';

export const DEFAULT_PORT = 4820;
export const DEFAULT_SCOPES = ['webui:*', 'claude-code:*', 'cursor:*', 'gemini:*', 'opencode:*'];

export interface ServeFlags {
  workspace?: string;
  data?: string;
  port: number;
  token?: string;
  agentToken?: string;
  scopes: string[];
  maxFileSize?: number;
  keepDays?: number;
  keepSessions?: number;
  /** Globs relative to the workspace; undefined keeps the engine's default. */
  exclude?: string[];
  help: boolean;
}

const COMMON = {
  workspace: { type: 'string' },
  data: { type: 'string' },
  port: { type: 'string' },
  token: { type: 'string' },
  'agent-token': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SERVE_ONLY = {
  scopes: { type: 'string' },
  'max-file-size': { type: 'string' },
  'keep-days': { type: 'string' },
  'keep-sessions': { type: 'string' },
  exclude: { type: 'string', multiple: true },
} as const;

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

function excludeGlobs(raw: string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  for (const glob of raw) if (glob.trim() === '' || glob.startsWith('/')) throw new UsageError(`--exclude takes a glob relative to the workspace, not ${JSON.stringify(glob)}`);
  return raw;
}

export function parseScopes(raw: string): string[] {
  return raw.split(',').map((scope) => scope.trim()).filter((scope) => scope.length > 0);
}

/** Parses the flags of `serve` (all of them) or `demo` (no scopes, size or retention flags). */
export function parseServeFlags(args: string[], command: 'serve' | 'demo', env: NodeJS.ProcessEnv = process.env): ServeFlags {
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
    port: integer('port', get('port'), 0, 65535) ?? DEFAULT_PORT,
    token: token('token', get('token') ?? (env.TURNBACK_TOKEN || undefined)),
    agentToken: token('agent-token', get('agent-token') ?? (env.TURNBACK_AGENT_TOKEN || undefined)),
    scopes: get('scopes') === undefined ? DEFAULT_SCOPES : parseScopes(get('scopes') as string),
    maxFileSize: integer('max-file-size', get('max-file-size'), 1, Number.MAX_SAFE_INTEGER),
    keepDays: integer('keep-days', get('keep-days'), 0, 36_500),
    keepSessions: integer('keep-sessions', get('keep-sessions'), 0, 1_000_000),
    exclude: excludeGlobs(values.exclude as string[] | undefined),
    help: values.help === true,
  };
  if (command === 'serve' && !flags.help && flags.workspace === undefined) {
    throw new UsageError('serve needs --workspace <dir>');
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
