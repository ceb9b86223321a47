// Codex's part of a real-CLI run's world (the test kit's openWorld): its own `~/.codex` in the
// temp HOME with a provider of the scripted fake Responses API and the MCP server; a second
// hook, set up in the same hooks.json before the built `turnback init codex` (which must keep
// it), logs every raw hook event. Both are trusted the way Codex's `/hooks` trusts them
// (trust.ts), after one turn that shows untrusted hooks are skipped; then the pinned Codex CLI
// runs with `codex exec` in the workspace.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeApi } from '../../../server/testkit/hosts/fake-api.js';
import { MCP_FILES_SERVER, openWorld, type World } from '../../../server/testkit/hosts/world.js';
import { runCommand, type CommandResult } from '../../../server/testkit/spawn.js';
import { startFakeApi, type Script } from './fake-api.js';
import { listHooks, trustHooks, trustProject, type ListedHook } from './trust.js';

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

export interface Sandbox extends World {
  codexHome: string;
  api: FakeApi;
  /** What `turnback init codex` printed. */
  initOutput: string;
  /** Codex's hook list right after `init`, before anything was trusted. */
  hooksBeforeTrust: ListedHook[];
  /** The hook events a `codex exec` turn sent before the hooks were trusted, and what it printed on stderr. */
  untrustedRun: { events: number; stderr: string };
  /** One `codex exec` turn; `exec resume <session>` from the second on, so all are one session. */
  codex(prompt: string): Promise<CommandResult>;
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
  const world = await openWorld({ prefix: 'codex-cli', setup: options.setup });
  const { workspace, env } = world;
  const codexHome = join(world.home, '.codex');
  await mkdir(codexHome, { recursive: true });
  const loggerGroup = (event: string) => ({
    ...(/Tool|Permission/.test(event) ? { matcher: '*' } : {}),
    hooks: [{ type: 'command', command: world.eventLogger, timeout: 3 }],
  });
  await mkdir(join(workspace, '.codex'));
  await writeFile(
    join(workspace, '.codex', 'hooks.json'),
    JSON.stringify({ hooks: Object.fromEntries(RAW_EVENTS.map((event) => [event, [loggerGroup(event)]])) }, null, 2),
  );
  const initOutput = await world.init(['codex', '--workspace', workspace]);

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
      `command = ${JSON.stringify(MCP_FILES_SERVER.command)}`,
      `args = ${JSON.stringify(MCP_FILES_SERVER.args)}`,
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
    events: (await world.rawEvents()).length,
    stderr: untrusted.stderr,
  };
  await trustHooks(options.codexBin, codexEnv, codexHome, workspace);
  await world.serve();

  let thread: string | null = null;
  return {
    ...world,
    codexHome,
    api,
    initOutput,
    hooksBeforeTrust,
    untrustedRun,
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
    close: () => world.close(() => api.close()),
  };
}
