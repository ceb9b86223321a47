// Gemini's part of a real-CLI run's world (the test kit's openWorld): the hooks the built
// `turnback init gemini` wrote, as it wrote them (the installed `bin/turnback-hook gemini`
// delivers to the recording server, found through the state dir as on a person's machine); user
// settings in the temp HOME with the MCP server and a second set of hooks that logs every raw
// event; the pinned Gemini CLI run with `-p` against the scripted fake Gemini API.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeApi } from '../../../server/testkit/hosts/fake-api.js';
import { MCP_FILES_SERVER, openWorld, type World } from '../../../server/testkit/hosts/world.js';
import { runCommand, type CommandResult } from '../../../server/testkit/spawn.js';
import { startFakeApi, type Script } from './fake-api.js';

const RAW_EVENTS = ['SessionStart', 'BeforeAgent', 'BeforeTool', 'AfterTool', 'AfterAgent', 'SessionEnd'];

export interface Sandbox extends World {
  api: FakeApi;
  initOutput: string;
  /** One `gemini -p` turn; `--resume latest` from the second on, so all are one session. */
  gemini(prompt: string): Promise<CommandResult>;
}

export async function openSandbox(options: {
  entry: string;
  script: (workspace: string) => Script;
  setup: (workspace: string) => Promise<void>;
}): Promise<Sandbox> {
  const world = await openWorld({ prefix: 'gemini', setup: options.setup });
  const { workspace, home } = world;
  await mkdir(join(home, '.gemini'), { recursive: true });
  const initOutput = await world.init(['gemini', '--workspace', workspace]);
  await world.serve();
  await writeFile(
    join(home, '.gemini', 'settings.json'),
    JSON.stringify(
      {
        security: { auth: { selectedType: 'gemini-api-key' } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        mcpServers: { files: { ...MCP_FILES_SERVER, trust: true } },
        hooks: Object.fromEntries(
          RAW_EVENTS.map((event) => [
            event,
            [{ matcher: '.*', hooks: [{ type: 'command', command: world.eventLogger, timeout: 5000 }] }],
          ]),
        ),
      },
      null,
      2,
    ),
  );

  const api = await startFakeApi(options.script(workspace));
  const geminiEnv: NodeJS.ProcessEnv = {
    ...world.env,
    GOOGLE_GEMINI_BASE_URL: api.url,
    GEMINI_API_KEY: 'x',
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  };
  let turns = 0;
  return {
    ...world,
    api,
    initOutput,
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
    close: () => world.close(() => api.close()),
  };
}
