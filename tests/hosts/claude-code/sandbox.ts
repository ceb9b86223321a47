// Claude Code's part of a real-CLI run's world (the test kit's openWorld): a second hook, set up
// before the built `turnback init claude-code` (which must keep it), logs every raw hook event;
// the MCP server's config beside the workspace; the pinned Claude Code CLI run with `-p` against
// the scripted fake Messages API.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeApi } from '../../../server/testkit/hosts/fake-api.js';
import { MCP_FILES_SERVER, openWorld, type World } from '../../../server/testkit/hosts/world.js';
import { runCommand, type CommandResult } from '../../../server/testkit/spawn.js';
import { startFakeApi, type Script } from './fake-api.js';

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

export interface Sandbox extends World {
  api: FakeApi;
  /** One `claude -p` turn; `--continue` from the second on, so all are one session. */
  claude(prompt: string, extraArgs?: string[]): Promise<CommandResult>;
}

export async function openSandbox(options: {
  claudeBin: string;
  /** The fake API's script, for the workspace's path. */
  script: (workspace: string) => Script;
  setup: (workspace: string) => Promise<void>;
}): Promise<Sandbox> {
  const world = await openWorld({ prefix: 'real-cli', setup: options.setup });
  const { workspace, root } = world;
  const loggerGroup = (event: string) => ({
    ...(/Tool/.test(event) ? { matcher: '*' } : {}),
    hooks: [{ type: 'command', command: world.eventLogger }],
  });
  await mkdir(join(workspace, '.claude'));
  await writeFile(
    join(workspace, '.claude', 'settings.local.json'),
    JSON.stringify({ hooks: Object.fromEntries(RAW_EVENTS.map((event) => [event, [loggerGroup(event)]])) }, null, 2),
  );
  await world.init(['claude-code', '--workspace', workspace]);

  const mcpConfig = join(root, 'mcp.json');
  await writeFile(mcpConfig, JSON.stringify({ mcpServers: { files: MCP_FILES_SERVER } }));
  await world.serve();
  const api = await startFakeApi(options.script(workspace));
  let turns = 0;
  const claudeEnv: NodeJS.ProcessEnv = {
    ...world.env,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'x',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    // As root, --permission-mode bypassPermissions is refused outside a sandbox.
    IS_SANDBOX: '1',
  };

  return {
    ...world,
    api,
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
    close: () => world.close(() => api.close()),
  };
}
