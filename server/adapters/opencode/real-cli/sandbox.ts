// One real-CLI run's world, all in a temp folder: a git workspace (OpenCode takes the git top
// level as its project; outside one it would snapshot from `/`), a built `turnback serve` on it,
// the plugin installed by the built `turnback init opencode --global` into a temp config
// folder, a provider of the scripted fake chat completions API in that folder's opencode.json,
// and the pinned OpenCode run with `opencode run` in the workspace (a temp HOME, no network).
// A probe plugin beside turnback's logs every plugin call as OpenCode makes it.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServe, stopServe } from '../../claude-code/test/serve.js';
import { runCommand, type CommandResult } from '../../claude-code/test/spawn.js';
import { startFakeApi, type FakeApi, type Script } from './fake-api.js';
import { OPENCODE_VERSION } from './install.js';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const mcpServer = fileURLToPath(new URL('../../claude-code/real-cli/mcp-files-server.ts', import.meta.url));
const cli = join(repo, 'bin', 'turnback.js');

export interface Sandbox {
  root: string;
  workspace: string;
  api: FakeApi;
  initOutput: string;
  console<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }>;
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
  const root = await mkdtemp(join(tmpdir(), 'turnback-opencode-'));
  const workspace = join(root, 'project');
  const home = join(root, 'home');
  const config = join(home, '.config');
  await mkdir(workspace);
  await mkdir(join(config, 'opencode', 'node_modules'), { recursive: true });
  await options.setup(workspace);
  execFileSync('git', ['init', '-q', workspace]);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    HOME: home,
    XDG_STATE_HOME: join(root, 'state'),
    XDG_CONFIG_HOME: config,
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    TMPDIR: tmpdir(),
  };
  const init = await runCommand(process.execPath, [cli, 'init', 'opencode', '--global', '--workspace', workspace], {
    env,
  });
  if (init.code !== 0) throw new Error(`turnback init opencode failed: ${init.stderr}`);

  // OpenCode installs @opencode-ai/plugin into its config folder unless the lock file already lists it.
  const dependencies = { '@opencode-ai/plugin': OPENCODE_VERSION };
  await writeFile(join(config, 'opencode', 'package.json'), JSON.stringify({ dependencies }));
  await writeFile(
    join(config, 'opencode', 'package-lock.json'),
    JSON.stringify({ lockfileVersion: 3, packages: { '': { dependencies } } }),
  );
  const probeFile = join(root, 'probe.jsonl');
  await writeFile(join(config, 'opencode', 'plugins', 'probe.js'), probePlugin(probeFile));

  const serve = await startServe(cli, workspace, join(root, 'data'), env);
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
        mcp: { files: { type: 'local', command: [process.execPath, '--import', tsx, mcpServer], enabled: true } },
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
    close: async () => {
      await api.close();
      await stopServe(serve);
      await rm(root, { recursive: true, force: true });
    },
  };
}
