// Copilot CLI's part of a real-CLI run's world (the test kit's openWorld): the hooks installed by
// the built `turnback init copilot --global` into the temp HOME's `~/.copilot/hooks/` (user hooks
// need no folder trust), the test kit's event logger as a hooks file of its own beside them (every
// raw payload, for the facts the adapter relies on), the MCP server in `~/.copilot/mcp-config.json`,
// and the pinned Copilot CLI run with `copilot -p` in the workspace, offline, its BYOK provider the
// scripted fake chat completions API (no GitHub sign-in: COPILOT_OFFLINE with
// COPILOT_PROVIDER_BASE_URL needs none).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeApi } from '../../../server/testkit/hosts/fake-api.js';
import { MCP_FILES_SERVER, openWorld, type World } from '../../../server/testkit/hosts/world.js';
import { runCommand, type CommandResult } from '../../../server/testkit/spawn.js';
import { COPILOT_EVENTS } from '../../../server/adapters/copilot/event.js';
import { startFakeApi, type Script } from './fake-api.js';
import { copilotPackageCache } from './install.js';

export interface Sandbox extends World {
  api: FakeApi;
  initOutput: string;
  /** One `copilot -p`; the second on resumes the first's session, so all are one session. */
  copilot(prompt: string): Promise<CommandResult>;
  close(): Promise<void>;
}

export async function openSandbox(options: {
  bin: string;
  script: (workspace: string) => Script;
  setup: (workspace: string) => Promise<void>;
}): Promise<Sandbox> {
  const world = await openWorld({ prefix: 'copilot', setup: options.setup });
  const { workspace, home, env, eventLogger } = world;
  const copilotDir = join(home, '.copilot');
  const initOutput = await world.init(['copilot', '--global', '--workspace', workspace]);
  const logged = Object.fromEntries(
    [...COPILOT_EVENTS, 'sessionStart'].map((event) => [
      event,
      [{ type: 'command', bash: eventLogger, timeoutSec: 10 }],
    ]),
  );
  await writeFile(join(copilotDir, 'hooks', 'log.json'), JSON.stringify({ version: 1, hooks: logged }, null, 2));
  await mkdir(copilotDir, { recursive: true });
  await writeFile(
    join(copilotDir, 'mcp-config.json'),
    JSON.stringify({
      mcpServers: {
        files: { type: 'local', command: MCP_FILES_SERVER.command, args: MCP_FILES_SERVER.args, tools: ['*'] },
      },
    }),
  );

  await world.serve();
  const api = await startFakeApi(options.script(workspace));
  const copilotEnv: NodeJS.ProcessEnv = {
    ...env,
    COPILOT_PKG_CACHE_HOME: copilotPackageCache(),
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${api.url}/v1`,
    COPILOT_PROVIDER_API_KEY: 'x',
    COPILOT_MODEL: 'gpt-4.1',
  };
  let sessionId: string | null = null;
  return {
    ...world,
    api,
    initOutput,
    copilot: async (prompt) => {
      const resume = sessionId === null ? [] : [`--resume=${sessionId}`];
      const run = await runCommand(
        process.execPath,
        [options.bin, '-p', prompt, ...resume, '--allow-all-tools', '--allow-all-paths', '--no-color'],
        { env: copilotEnv, cwd: workspace, cleanEnv: true },
      );
      sessionId ??= (await world.rawEvents()).find((event) => typeof event.sessionId === 'string')?.sessionId ?? null;
      return run;
    },
    close: () => world.close(() => api.close()),
  };
}
