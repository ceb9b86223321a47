// One real-CLI run's world, all in a temp folder: a workspace set up with the built
// `turnback init claude-code`, a built `turnback serve` on it, the scripted fake Messages API,
// and the pinned Claude Code CLI run with `-p` in the workspace (a temp HOME, no network). A
// second hook, set up before `init` (which must keep it), logs every raw hook event.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServe, stopServe } from '../test/serve.js';
import { runCommand, type CommandResult } from '../test/spawn.js';
import { startFakeApi, type FakeApi, type Script } from './fake-api.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const mcpServer = fileURLToPath(new URL('./mcp-files-server.ts', import.meta.url));
const cli = join(repo, 'bin', 'turnback.js');
const RAW_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'StopFailure',
  'SessionEnd',
];

export interface Sandbox {
  root: string;
  workspace: string;
  api: FakeApi;
  /** GET/POST the console API of the running server with its console token. */
  console<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }>;
  /** One `claude -p` turn; `--continue` from the second on, so all are one session. */
  claude(prompt: string, extraArgs?: string[]): Promise<CommandResult>;
  /** Every hook event Claude Code sent, as it sent them. */
  rawEvents(): Promise<Record<string, any>[]>;
  hookLog(): Promise<string>;
  close(): Promise<void>;
}

/** `setup` fills the workspace before turnback and Claude Code see it. */
export async function openSandbox(options: {
  claudeBin: string;
  /** The fake API's script, for the workspace's path. */
  script: (workspace: string) => Script;
  setup: (workspace: string) => Promise<void>;
}): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), 'turnback-real-cli-'));
  const workspace = join(root, 'project');
  const home = join(root, 'home');
  await mkdir(workspace);
  await mkdir(home);
  await options.setup(workspace);
  // Nothing of the machine's own Claude Code or turnback set-up reaches the run.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    HOME: home,
    XDG_STATE_HOME: join(root, 'state'),
    TMPDIR: tmpdir(),
    // A hook that finds no service starts one: on a free port, never the machine's 4820.
    TURNBACK_PORT: '0',
  };

  const eventsFile = join(root, 'events.jsonl');
  const logger = join(root, 'log-event.sh');
  await writeFile(logger, `#!/bin/sh\n{ cat; echo; } >> '${eventsFile}'\n`, { mode: 0o755 });
  const loggerGroup = (event: string) => ({
    ...(/Tool/.test(event) ? { matcher: '*' } : {}),
    hooks: [{ type: 'command', command: logger }],
  });
  await mkdir(join(workspace, '.claude'));
  await writeFile(
    join(workspace, '.claude', 'settings.local.json'),
    JSON.stringify({ hooks: Object.fromEntries(RAW_EVENTS.map((event) => [event, [loggerGroup(event)]])) }, null, 2),
  );
  const init = await runCommand(process.execPath, [cli, 'init', 'claude-code', '--workspace', workspace], { env });
  if (init.code !== 0) throw new Error(`turnback init failed: ${init.stderr}`);

  // The MCP server's config lives outside the workspace, so the tree holds only what turns did.
  const mcpConfig = join(root, 'mcp.json');
  await writeFile(
    mcpConfig,
    JSON.stringify({ mcpServers: { files: { command: process.execPath, args: ['--import', tsx, mcpServer] } } }),
  );
  const serve = await startServe(cli, workspace, join(root, 'data'), env);
  const api = await startFakeApi(options.script(workspace));
  let turns = 0;
  const claudeEnv: NodeJS.ProcessEnv = {
    ...env,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'x',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    // As root, --permission-mode bypassPermissions is refused outside a sandbox.
    IS_SANDBOX: '1',
  };

  return {
    root,
    workspace,
    api,
    console: async <T>(method: string, path: string, body?: unknown) => {
      const response = await fetch(`${serve.origin}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${serve.token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: (await response.json()) as T };
    },
    claude: (prompt, extraArgs = []) =>
      runCommand(
        options.claudeBin,
        [
          ...(turns++ > 0 ? ['--continue'] : []),
          '-p',
          prompt,
          '--permission-mode',
          'bypassPermissions',
          '--output-format',
          'stream-json',
          '--verbose',
          '--mcp-config',
          mcpConfig,
          '--strict-mcp-config',
          ...extraArgs,
        ],
        { env: claudeEnv, cwd: workspace, cleanEnv: true },
      ),
    rawEvents: async () =>
      (await readFile(eventsFile, 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line)),
    hookLog: () => readFile(join(root, 'state', 'turnback', 'hook.log'), 'utf8').catch(() => ''),
    close: async () => {
      await api.close();
      await stopServe(serve);
      // TURNBACK_KEEP_SANDBOX=1 keeps it for a look at the raw events and transcripts.
      if (process.env.TURNBACK_KEEP_SANDBOX) process.stderr.write(`kept the sandbox ${root}\n`);
      else await rm(root, { recursive: true, force: true });
    },
  };
}
