// `turnback init claude-code` offers turnback's MCP server to Claude Code: the exact
// `claude mcp add` command to register it, or with `--mcp` the same entry written where that
// command writes it for the user scope, `mcpServers.turnback` of ~/.claude.json. That file is
// Claude Code's own state: it is changed only when it parses as a JSON object, every other key is
// kept as it was, its mode is kept (it holds the person's account state), and it is replaced by a
// rename, never written in place, so a reader never sees half of it.
import { chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shellQuote } from '../adapters/claude-code/settings.js';

export const MCP_SERVER_NAME = 'turnback';

/** The server as Claude Code's config holds it: a stdio command, this installation's bin by absolute path. */
export function mcpServerEntry(bin: string): {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
} {
  return { type: 'stdio', command: bin, args: ['mcp'], env: {} };
}

/** What a person runs to register it themselves. */
export function mcpAddCommand(bin: string): string {
  return `claude mcp add -s user ${MCP_SERVER_NAME} -- ${shellQuote(bin)} mcp`;
}

export const claudeUserConfig = (home: string) => join(home, '.claude.json');

export interface McpEdit {
  file: string;
  changed: boolean;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function readConfig(file: string): { config: Json; mode: number | undefined } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { config: {}, mode: undefined };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`it is not valid JSON (${(error as Error).message}); it was left as it is`, { cause: error });
  }
  if (!isObject(parsed) || ('mcpServers' in parsed && !isObject(parsed.mcpServers))) {
    throw new Error('it does not hold a JSON object with an mcpServers object; it was left as it is');
  }
  return { config: parsed, mode: statSync(file).mode & 0o777 };
}

function writeConfig(file: string, config: Json, mode: number | undefined): void {
  const temp = `${file}.turnback-${process.pid}.tmp`;
  // A new file is the person's alone, as Claude Code makes it.
  writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: mode ?? 0o600 });
  chmodSync(temp, mode ?? 0o600);
  renameSync(temp, file);
}

const sameEntry = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Adds (or with `remove`, takes out) `mcpServers.turnback`; running it twice changes nothing. */
export function editMcpRegistration(home: string, bin: string, remove: boolean): McpEdit {
  const file = claudeUserConfig(home);
  const { config, mode } = readConfig(file);
  const servers: Json = isObject(config.mcpServers) ? { ...config.mcpServers } : {};
  if (remove) {
    if (!(MCP_SERVER_NAME in servers)) return { file, changed: false };
    delete servers[MCP_SERVER_NAME];
  } else {
    const entry = mcpServerEntry(bin);
    if (sameEntry(servers[MCP_SERVER_NAME], entry)) return { file, changed: false };
    servers[MCP_SERVER_NAME] = entry;
  }
  writeConfig(file, { ...config, mcpServers: servers }, mode);
  return { file, changed: true };
}
