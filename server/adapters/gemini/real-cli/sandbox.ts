// One real-CLI run's world, all in a temp folder: a workspace set up with the built
// `turnback init gemini`, a built `turnback serve` on it, the scripted fake Gemini API, and the
// pinned Gemini CLI run with `-p` in the workspace (a temp HOME, no network). The hooks `init`
// wrote (their events and matchers) are kept, their command pointed at a curl of the server's
// hook route, as the sh hook delivers; a second set of hooks in the user settings logs every
// raw event.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServe, stopServe } from '../../claude-code/test/serve.js';
import { runCommand, type CommandResult } from '../../claude-code/test/spawn.js';
import { startFakeApi, type FakeApi, type Script } from './fake-api.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const mcpServer = fileURLToPath(new URL('../../claude-code/real-cli/mcp-files-server.ts', import.meta.url));
const cli = join(repo, 'bin', 'turnback.js');
const RAW_EVENTS = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd'];

export interface Sandbox {
  root: string;
  workspace: string;
  api: FakeApi;
  initOutput: string;
  console<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }>;
  /** One `gemini -p` turn; `--resume latest` from the second on, so all are one session. */
  gemini(prompt: string): Promise<CommandResult>;
  rawEvents(): Promise<Record<string, any>[]>;
  close(): Promise<void>;
}

export async function openSandbox(options: {
  entry: string;
  script: (workspace: string) => Script;
  setup: (workspace: string) => Promise<void>;
}): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), 'turnback-gemini-'));
  const workspace = join(root, 'project');
  const home = join(root, 'home');
  await mkdir(workspace);
  await mkdir(join(home, '.gemini'), { recursive: true });
  await options.setup(workspace);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    HOME: home,
    XDG_STATE_HOME: join(root, 'state'),
    TMPDIR: tmpdir(),
  };

  const init = await runCommand(process.execPath, [cli, 'init', 'gemini', '--workspace', workspace], { env });
  if (init.code !== 0) throw new Error(`turnback init gemini failed: ${init.stderr}`);
  const serve = await startServe(cli, workspace, join(root, 'data'), env);

  // The settings `init` wrote, delivering through curl to this server's route (the agent routes take the console token too).
  const deliver = join(root, 'deliver.sh');
  await writeFile(
    deliver,
    `#!/bin/sh\nmax=2\n[ "$2" = --max-time ] && max=$3\n` +
      `curl -s -o /dev/null --max-time "$max" -X POST -H 'Content-Type: application/json' -H 'Authorization: Bearer ${serve.token}' ` +
      `--data-binary @- '${serve.origin}/api/agent/hook/gemini'\nexit 0\n`,
    { mode: 0o755 },
  );
  const settingsFile = join(workspace, '.gemini', 'settings.json');
  const settings = JSON.parse(await readFile(settingsFile, 'utf8'));
  for (const groups of Object.values(settings.hooks as Record<string, { hooks: { command: string }[] }[]>)) {
    for (const group of groups)
      for (const hook of group.hooks) hook.command = hook.command.replace(/^.*turnback-hook'?/, deliver);
  }
  await writeFile(settingsFile, JSON.stringify(settings, null, 2));

  const eventsFile = join(root, 'events.jsonl');
  const logger = join(root, 'log-event.sh');
  await writeFile(logger, `#!/bin/sh\n{ cat; echo; } >> '${eventsFile}'\n`, { mode: 0o755 });
  await writeFile(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify(
      {
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        // Outside the workspace, so the tree holds only what turns did.
        mcpServers: { files: { command: process.execPath, args: ['--import', tsx, mcpServer], trust: true } },
        hooks: Object.fromEntries(
          RAW_EVENTS.map((event) => [
            event,
            [{ matcher: '.*', hooks: [{ type: 'command', command: logger, timeout: 5000 }] }],
          ]),
        ),
      },
      null,
      2,
    ),
  );

  const api = await startFakeApi(options.script(workspace));
  const geminiEnv: NodeJS.ProcessEnv = {
    ...env,
    GOOGLE_GEMINI_BASE_URL: api.url,
    GEMINI_API_KEY: 'x',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  };
  let turns = 0;
  return {
    root,
    workspace,
    api,
    initOutput: init.stdout,
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
    // A fixed model: no routing calls before each turn.
    gemini: (prompt) =>
      runCommand(
        process.execPath,
        [
          options.entry,
          ...(turns++ > 0 ? ['--resume', 'latest'] : []),
          '-p',
          prompt,
          '--yolo',
          '-m',
          'gemini-2.5-pro',
          '--output-format',
          'json',
        ],
        { env: geminiEnv, cwd: workspace, cleanEnv: true },
      ),
    rawEvents: async () =>
      (await readFile(eventsFile, 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line)),
    close: async () => {
      await api.close();
      await stopServe(serve);
      await rm(root, { recursive: true, force: true });
    },
  };
}
