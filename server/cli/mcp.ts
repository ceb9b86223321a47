// `turnback mcp [--workspace <dir>]`: an MCP server on stdio (the official SDK) whose tools list,
// show, diff, preview and undo the turns of the workspace of <dir> (default: the cwd), as the
// agent whose host started it (its session from the host's environment: mcp/agent-scope.ts).
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { packageVersion } from '../http/version.js';
import { callerSessionOf } from './mcp/agent-scope.js';
import { registerTools } from './mcp/tools.js';

const USAGE = 'usage: turnback mcp [--workspace <dir>]\n';

export async function run(args: string[]): Promise<number> {
  let workspace: string | undefined;
  try {
    const { values } = parseArgs({
      args,
      options: { workspace: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if (values.help) {
      process.stdout.write(USAGE);
      return 0;
    }
    workspace = values.workspace;
  } catch (err) {
    process.stderr.write(`turnback mcp: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  let cwd: string;
  try {
    cwd = realpathSync(path.resolve(workspace ?? process.cwd()));
  } catch {
    process.stderr.write(`turnback mcp: the folder ${workspace} does not exist\n`);
    return 2;
  }
  const server = new McpServer({ name: 'turnback', version: packageVersion() });
  registerTools(server, {
    cwd,
    env: process.env,
    bin: [process.execPath, ...process.execArgv, process.argv[1]],
    session: callerSessionOf(process.env),
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // The host ends the server by closing its stdin (the MCP stdio transport's shutdown).
  await new Promise<void>((resolve) => {
    server.server.onclose = resolve;
    process.stdin.once('end', resolve).once('close', resolve);
  });
  await server.close();
  return 0;
}
