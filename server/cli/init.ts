// `turnback init <host> [--workspace DIR] [--global] [--remove] [--mcp]`: registers turnback's hook
// in the host's settings (the project's, or the person's own with --global), or takes it out again,
// keeping every other setting and hook. Running it twice changes nothing. What the settings look
// like is each host's (server/adapters/settings-writers.ts); this is only the command line. For
// Claude Code it offers the MCP server too (init-mcp.ts): the command that registers it, or with
// --mcp the registration itself. One workspace's hooks also register it with the service
// (init-register.ts), whose index build then starts (--no-start: the settings only).
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellQuote } from '../adapters/claude-code/settings.js';
import type { HostSettingsWriter } from '../adapters/core/settings-writer.js';
import { SETTINGS_WRITERS } from '../adapters/settings-writers.js';
import { readAgentNoticeSettings, updateAgentNoticeSettings } from '../adapters/core/agent-notices.js';
import { editMcpRegistration, mcpAddCommand } from './init-mcp.js';
import { registerWithService } from './init-register.js';

const hosts = () => SETTINGS_WRITERS.map((writer) => writer.host).join('|');
const usage = () =>
  `usage: turnback init <${hosts()}> [--workspace DIR] [--global] [--remove] [--mcp] [--no-start] [--allow] [--quiet-agent]`;

/** bin/turnback.js of this installation (this module is server/cli/ or build/cli/). */
export function turnbackBinPath(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'turnback.js');
}

/** How a person runs this bin: `turnback` when that name on the PATH is it, else node and its path. */
export function turnbackCommand(env: NodeJS.ProcessEnv = process.env): string {
  const bin = realpathSync(turnbackBinPath());
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (!folder) continue;
    try {
      if (realpathSync(join(folder, 'turnback')) === bin) return 'turnback';
    } catch {
      // Not in this folder.
    }
  }
  return [process.execPath, turnbackBinPath()].map(shellQuote).join(' ');
}

/** bin/turnback-hook next to it: the sh + curl hook, which falls back to the Node one. */
export function turnbackHookPath(): string {
  return join(dirname(turnbackBinPath()), 'turnback-hook');
}

/** The hook's command for `host`, by absolute path: `turnback-hook` alone is Claude Code's (its default host). */
export function hookCommand(host = 'claude-code'): string {
  return host === 'claude-code' ? shellQuote(turnbackHookPath()) : `${shellQuote(turnbackHookPath())} ${host}`;
}

interface InitArgs {
  writer: HostSettingsWriter;
  workspace: string;
  global: boolean;
  remove: boolean;
  /** Claude Code only: register (or with --remove, unregister) the MCP server as well. */
  mcp: boolean;
  /** Only the settings: the workspace is not registered with the service (none is started). */
  noStart: boolean;
  /** The person's yes to a system folder or a dot-folder of the home folder as a workspace. */
  allow: boolean;
  /** The host's agents are not told what the person undid (agent-notices.ts). */
  quietAgent: boolean;
}

function parseArgs(args: string[]): InitArgs | null {
  const writer = SETTINGS_WRITERS.find((candidate) => candidate.host === args[0]);
  if (!writer) return null;
  let workspace = process.cwd();
  let global = false;
  let remove = false;
  let mcp = false;
  let noStart = false;
  let allow = false;
  let quietAgent = false;
  for (let i = 1; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--workspace' && i + 1 < args.length) workspace = args[++i];
    else if (arg.startsWith('--workspace=')) workspace = arg.slice('--workspace='.length);
    else if (arg === '--global') global = true;
    else if (arg === '--remove') remove = true;
    else if (arg === '--mcp' && writer.host === 'claude-code') mcp = true;
    else if (arg === '--no-start') noStart = true;
    else if (arg === '--allow') allow = true;
    else if (arg === '--quiet-agent') quietAgent = true;
    else return null;
  }
  return { writer, workspace: resolve(workspace), global, remove, mcp, noStart, allow, quietAgent };
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function writeAtomically(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.turnback-${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

export async function run(args: string[]): Promise<number> {
  const parsed = parseArgs(args);
  if (!parsed) {
    process.stderr.write(`${usage()}\n`);
    return 2;
  }
  const { writer, workspace, global, remove, mcp, noStart, allow, quietAgent } = parsed;
  const home = process.env.HOME || homedir();
  const base = global ? home : workspace;
  if (!isDirectory(base)) {
    process.stderr.write(`turnback init: ${base} is not a directory\n`);
    return 2;
  }
  const file = writer.settingsFile({ workspace, home, global });
  try {
    const current = readText(file);
    const edit = remove ? writer.remove(current) : writer.install(current, hookCommand(writer.host));
    if (edit.changed && edit.deleteFile) {
      rmSync(file);
      // The project's settings folder init made for it goes too, once nothing else is in it.
      if (!global && writer.host === 'claude-code' && readdirSync(dirname(file)).length === 0) rmdirSync(dirname(file));
    } else if (edit.changed && edit.text !== null) writeAtomically(file, edit.text);
    process.stdout.write(
      remove
        ? `${edit.changed ? 'Removed the turnback hooks from' : 'No turnback hooks in'} ${file}\n`
        : `${edit.changed ? 'Added the turnback hooks to' : 'The turnback hooks are already in'} ${file}\n` +
            (writer.afterInstall?.(file) ?? []).map((line) => `${line}\n`).join('') +
            'Use the agent as usual: its first hook starts your turnback service. The console, for every workspace:\n' +
            `  ${turnbackCommand()} url\n` +
            'Each commit gets a git note naming the agent turns that wrote it (refs/notes/turnback), kept in this\n' +
            `clone. Sharing them with your team is your choice: ${turnbackCommand()} share on [--prompts]\n`,
    );
  } catch (error) {
    process.stderr.write(`turnback init: cannot update ${file}: ${(error as Error).message}\n`);
    return 2;
  }
  if (!remove) noteQuietAgent(writer.host, quietAgent);
  // One workspace's hooks: it is registered now, so its index is built before the agent's first command.
  if (!remove && !global && !noStart)
    process.stdout.write(`${await registerWithService(workspace, process.env, { allow })}\n`);
  return writer.host === 'claude-code' ? offerMcp(home, remove, mcp) : 0;
}

/** --quiet-agent: the host's agents are not told what the person undid; init without it tells them again. */
function noteQuietAgent(host: string, quiet: boolean): void {
  try {
    if (!quiet && !readAgentNoticeSettings().quietHosts.includes(host)) return;
    updateAgentNoticeSettings({ host: { name: host, quiet } });
    process.stdout.write(
      quiet
        ? `The ${host} agent is not told what you undo (init again without --quiet-agent to tell it).\n`
        : `The ${host} agent is told again what you undo before its next prompt.\n`,
    );
  } catch (error) {
    process.stderr.write(`turnback init: cannot write the agent-notices setting: ${(error as Error).message}\n`);
  }
}

/** Claude Code's MCP server: registered with --mcp, else the command that does it printed. */
function offerMcp(home: string, remove: boolean, mcp: boolean): number {
  const bin = turnbackBinPath();
  if (!mcp) {
    if (!remove)
      process.stdout.write(
        `To undo from Claude Code's chat too, register turnback's MCP server (or run this again with --mcp):\n  ${mcpAddCommand(bin)}\n`,
      );
    return 0;
  }
  try {
    const edit = editMcpRegistration(home, bin, remove);
    process.stdout.write(
      remove
        ? `${edit.changed ? 'Removed the turnback MCP server from' : 'No turnback MCP server in'} ${edit.file}\n`
        : `${edit.changed ? 'Registered the turnback MCP server in' : 'The turnback MCP server is already registered in'} ${edit.file} (for every project; Claude Code sessions started from now on see it)\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(
      `turnback init: cannot register the MCP server in ${home}/.claude.json: ${(error as Error).message}\n` +
        (remove ? '' : `Register it with:\n  ${mcpAddCommand(bin)}\n`),
    );
    return 2;
  }
}
