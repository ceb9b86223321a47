// One real-CLI run's world, all in a temp folder: a workspace set up with the built
// `turnback init codex`, a built `turnback serve` on it, the scripted fake Responses API, and the
// pinned Codex CLI run with `codex exec` in the workspace (a temp HOME, so its own `~/.codex`,
// no network). A second hook, set up in the same hooks.json before `init` (which must keep it),
// logs every raw hook event. Both are trusted the way Codex's `/hooks` trusts them (trust.ts).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServe, stopServe } from '../../claude-code/test/serve.js';
import { runCommand, type CommandResult } from '../../claude-code/test/spawn.js';
import { startFakeApi, type FakeApi, type Script } from './fake-api.js';
import { listHooks, trustHooks, trustProject, type ListedHook } from './trust.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const mcpServer = fileURLToPath(new URL('../../claude-code/real-cli/mcp-files-server.ts', import.meta.url));
const cli = join(repo, 'bin', 'turnback.js');
const RAW_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'SubagentStart',
  'SubagentStop',
  'Stop',
  'SessionEnd',
  'Interrupt',
];
/** A model of Codex's catalog, so its tools (apply_patch, exec_command) are the ones it offers that model. */
const MODEL = 'gpt-5.5';

export interface Sandbox {
  root: string;
  workspace: string;
  codexHome: string;
  api: FakeApi;
  /** What `turnback init codex` printed. */
  initOutput: string;
  /** Codex's hook list right after `init`, before anything was trusted. */
  hooksBeforeTrust: ListedHook[];
  /** The hook events a `codex exec` turn sent before the hooks were trusted, and what it printed on stderr. */
  untrustedRun: { events: number; stderr: string };
  console<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }>;
  /** One `codex exec` turn; `exec resume <session>` from the second on, so all are one session. */
  codex(prompt: string): Promise<CommandResult>;
  /** Every hook event Codex sent, as it sent them. */
  rawEvents(): Promise<Record<string, any>[]>;
  hookLog(): Promise<string>;
  close(): Promise<void>;
}

const threadOf = (jsonl: string): string | null => {
  for (const line of jsonl.split('\n')) {
    try {
      const event = JSON.parse(line) as { type?: string; thread_id?: string };
      if (event.type === 'thread.started' && typeof event.thread_id === 'string') return event.thread_id;
    } catch {
      /* not an event line */
    }
  }
  return null;
};

export async function openSandbox(options: {
  codexBin: string;
  script: (workspace: string) => Script;
  setup: (workspace: string) => Promise<void>;
}): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), 'turnback-codex-cli-'));
  const workspace = join(root, 'project');
  const home = join(root, 'home');
  const codexHome = join(home, '.codex');
  await mkdir(workspace);
  await mkdir(codexHome, { recursive: true });
  await options.setup(workspace);
  // Nothing of the machine's own Codex or turnback set-up reaches the run.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    HOME: home,
    XDG_STATE_HOME: join(root, 'state'),
    TMPDIR: tmpdir(),
  };

  const eventsFile = join(root, 'events.jsonl');
  const logger = join(root, 'log-event.sh');
  // Codex starts the hooks of one event at once: each appends its line in one write.
  await writeFile(logger, `#!/bin/sh\nline=$(cat)\nprintf '%s\\n' "$line" >> '${eventsFile}'\n`, { mode: 0o755 });
  const loggerGroup = (event: string) => ({
    ...(/Tool|Permission/.test(event) ? { matcher: '*' } : {}),
    hooks: [{ type: 'command', command: logger, timeout: 3 }],
  });
  await mkdir(join(workspace, '.codex'));
  await writeFile(
    join(workspace, '.codex', 'hooks.json'),
    JSON.stringify({ hooks: Object.fromEntries(RAW_EVENTS.map((event) => [event, [loggerGroup(event)]])) }, null, 2),
  );
  const init = await runCommand(process.execPath, [cli, 'init', 'codex', '--workspace', workspace], { env });
  if (init.code !== 0) throw new Error(`turnback init codex failed: ${init.stderr}`);

  const api = await startFakeApi(options.script(workspace));
  await writeFile(
    join(codexHome, 'config.toml'),
    [
      `model = ${JSON.stringify(MODEL)}`,
      'model_provider = "fake"',
      '[model_providers.fake]',
      'name = "scripted fake"',
      `base_url = ${JSON.stringify(`${api.url}/v1`)}`,
      'wire_api = "responses"',
      'env_key = "FAKE_API_KEY"',
      // The MCP server lives outside the workspace, so the tree holds only what turns did.
      '[mcp_servers.files]',
      `command = ${JSON.stringify(process.execPath)}`,
      `args = ${JSON.stringify(['--import', tsx, mcpServer])}`,
      '',
    ].join('\n'),
  );
  const codexEnv: NodeJS.ProcessEnv = { ...env, FAKE_API_KEY: 'x' };
  await trustProject(codexHome, workspace);
  const hooksBeforeTrust = await listHooks(options.codexBin, codexEnv, workspace);
  // A turn before the person trusted the hooks: Codex skips them (a session of its own, not recorded).
  const untrusted = await runCommand(
    process.execPath,
    [
      options.codexBin,
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--dangerously-bypass-approvals-and-sandbox',
      'Untrusted: say hi',
    ],
    { env: codexEnv, cwd: workspace, cleanEnv: true },
  );
  if (untrusted.code !== 0) throw new Error(`codex exec failed before trust: ${untrusted.stderr}`);
  const untrustedRun = {
    events: (await readFile(eventsFile, 'utf8').catch(() => '')).split('\n').filter((line) => line.trim() !== '')
      .length,
    stderr: untrusted.stderr,
  };
  await trustHooks(options.codexBin, codexEnv, codexHome, workspace);
  const serve = await startServe(cli, workspace, join(root, 'data'), env);

  let thread: string | null = null;
  return {
    root,
    workspace,
    codexHome,
    api,
    initOutput: init.stdout,
    hooksBeforeTrust,
    untrustedRun,
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
    codex: async (prompt) => {
      const run = await runCommand(
        process.execPath,
        [
          options.codexBin,
          'exec',
          ...(thread === null ? [] : ['resume', thread]),
          '--json',
          '--skip-git-repo-check',
          '--dangerously-bypass-approvals-and-sandbox',
          prompt,
        ],
        { env: codexEnv, cwd: workspace, cleanEnv: true },
      );
      thread ??= threadOf(run.stdout);
      return run;
    },
    rawEvents: async () =>
      (await readFile(eventsFile, 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line)),
    hookLog: () => readFile(join(root, 'state', 'turnback', 'hook.log'), 'utf8').catch(() => ''),
    close: async () => {
      await api.close();
      await stopServe(serve);
      await rm(root, { recursive: true, force: true });
    },
  };
}
