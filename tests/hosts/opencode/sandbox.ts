// OpenCode's part of a real-CLI run's world (the test kit's openWorld): a git workspace
// (OpenCode takes the git top level as its project; outside one it would snapshot from `/`), the
// plugin installed by the built `turnback init opencode --global` into the temp HOME's config
// folder, a provider of the scripted fake chat completions API and the MCP server in that
// folder's opencode.json, and the pinned OpenCode run with `opencode run` in the workspace. A
// probe plugin beside turnback's logs every plugin call as OpenCode makes it.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeApi } from '../../../server/testkit/hosts/fake-api.js';
import { MCP_FILES_SERVER, openWorld, type World } from '../../../server/testkit/hosts/world.js';
import { runCommand, type CommandResult } from '../../../server/testkit/spawn.js';
import { startFakeApi, type Script } from './fake-api.js';
import { OPENCODE_VERSION } from './install.js';

export interface Sandbox extends World {
  api: FakeApi;
  initOutput: string;
  /** One `opencode run`; `--continue` from the second on, so all are one session. */
  opencode(prompt: string): Promise<CommandResult>;
  probe(): Promise<{ kind: string; a: any; b: any }[]>;
  close(): Promise<void>;
}

const probePlugin = (file: string) => `import { appendFileSync } from 'node:fs';
const log = (kind, a, b) => appendFileSync(${JSON.stringify(file)}, JSON.stringify({ kind, a, b }) + '\\n');
export const Probe = async () => ({
  'chat.message': async (input, output) => log('chat.message', input, output),
  'tool.execute.before': async (input, output) => log('before', input, output),
  'tool.execute.after': async (input, output) => log('after', input, output),
  event: async ({ event }) => { if (/^session\\.(created|idle)$/.test(event.type)) log('event', event) },
});
`;

export async function openSandbox(options: {
  bin: string;
  script: (workspace: string) => Script;
  setup: (workspace: string) => Promise<void>;
}): Promise<Sandbox> {
  const world = await openWorld({
    prefix: 'opencode',
    setup: async (workspace) => {
      await options.setup(workspace);
      execFileSync('git', ['init', '-q', workspace]);
    },
    env: (home) => ({
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
    }),
  });
  const { workspace, root, env } = world;
  const config = env.XDG_CONFIG_HOME!;
  await mkdir(join(config, 'opencode', 'node_modules'), { recursive: true });
  const initOutput = await world.init(['opencode', '--global', '--workspace', workspace]);

  // OpenCode installs @opencode-ai/plugin into its config folder unless the lock file already lists it.
  const dependencies = { '@opencode-ai/plugin': OPENCODE_VERSION };
  await writeFile(join(config, 'opencode', 'package.json'), JSON.stringify({ dependencies }));
  await writeFile(
    join(config, 'opencode', 'package-lock.json'),
    JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }),
  );
  const probeFile = join(root, 'probe.jsonl');
  await writeFile(join(config, 'opencode', 'plugins', 'probe.js'), probePlugin(probeFile));

  await world.serve();
  const api = await startFakeApi(options.script(workspace));
  await writeFile(
    join(config, 'opencode', 'opencode.json'),
    JSON.stringify(
      {
        $schema: 'https://opencode.ai/config.json',
        provider: {
          fake: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Fake',
            options: { baseURL: `${api.url}/v1`, apiKey: 'x' },
            models: { m: { name: 'M', tool_call: true } },
          },
        },
        model: 'fake/m',
        small_model: 'fake/m',
        autoupdate: false,
        share: 'disabled',
        permission: { edit: 'allow', bash: 'allow', webfetch: 'allow', external_directory: 'allow' },
        mcp: { files: { type: 'local', command: [MCP_FILES_SERVER.command, ...MCP_FILES_SERVER.args], enabled: true } },
      },
      null,
      2,
    ),
  );
  const opencodeEnv: NodeJS.ProcessEnv = {
    ...env,
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_SHARE: '1',
  };
  let turns = 0;
  return {
    ...world,
    api,
    initOutput,
    opencode: (prompt) =>
      runCommand(options.bin, ['run', ...(turns++ > 0 ? ['--continue'] : []), '--format', 'json', prompt], {
        env: opencodeEnv,
        cwd: workspace,
        cleanEnv: true,
      }),
    probe: async () =>
      (await readFile(probeFile, 'utf8').catch(() => ''))
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l)),
    close: () => world.close(() => api.close()),
  };
}
