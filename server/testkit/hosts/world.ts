// One real-CLI run's world, all in a temp folder: a workspace the scenario sets up, a temp HOME
// (so nothing of the machine's own agent or turnback set-up reaches the run, and the run leaves
// nothing there), the built `turnback` CLI to run `init` with, a built `turnback serve` recording
// with its console API, the MCP server every host is given, and a hook script that logs every
// raw event the host sends. Each host's sandbox.ts adds its own configuration and its CLI.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServe, stopServe, type Serve } from '../serve.js';
import { runCommand } from '../spawn.js';

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const cli = join(repo, 'bin', 'turnback.js');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** The MCP server with one `write` tool, as a command line; it lives outside the workspace, so the tree holds only what turns did. */
export const MCP_FILES_SERVER = {
  command: process.execPath,
  args: ['--import', tsx, fileURLToPath(new URL('./mcp-files-server.ts', import.meta.url))],
};

export type ConsoleCall = <T = any>(
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; json: T }>;

export interface World {
  root: string;
  workspace: string;
  home: string;
  /** PATH, LANG, HOME, the state dir and TMPDIR: all a run gets, with the host's own additions. */
  env: NodeJS.ProcessEnv;
  /** A hook command that appends the event on stdin, in one write, as a line of events.jsonl. */
  eventLogger: string;
  /** Every event the logger saw, as the host sent it. */
  rawEvents(): Promise<Record<string, any>[]>;
  /** What the hook logged as a problem (empty when none). */
  hookLog(): Promise<string>;
  /** `turnback init <args>` from the build, its output; throws when it fails. */
  init(args: string[]): Promise<string>;
  /** Starts the built `turnback serve` on the workspace (once), the data dir in the world. */
  serve(): Promise<void>;
  /** GET/POST the console API of the running server with its console token. */
  console: ConsoleCall;
  /** Stops what runs and removes the folder (TURNBACK_KEEP_SANDBOX=1 keeps it for a look). */
  close(stopFirst?: () => Promise<void>): Promise<void>;
}

const readLines = async (file: string) =>
  (await readFile(file, 'utf8').catch(() => ''))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));

export async function openWorld(options: {
  /** The temp folder's name starts `turnback-<prefix>-`. */
  prefix: string;
  /** Fills the workspace before turnback and the host see it. */
  setup: (workspace: string) => Promise<void>;
  /** The host's own variables, given the temp HOME. */
  env?: (home: string) => NodeJS.ProcessEnv;
}): Promise<World> {
  const root = await mkdtemp(join(tmpdir(), `turnback-${options.prefix}-`));
  const workspace = join(root, 'project');
  const home = join(root, 'home');
  await mkdir(workspace);
  await mkdir(home);
  await options.setup(workspace);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    LANG: 'C.UTF-8',
    HOME: home,
    XDG_STATE_HOME: join(root, 'state'),
    TMPDIR: tmpdir(),
    // A hook that finds no service starts one: on a free port, never the machine's 4820.
    TURNBACK_PORT: '0',
    ...options.env?.(home),
  };
  const eventsFile = join(root, 'events.jsonl');
  const eventLogger = join(root, 'log-event.sh');
  // A host may start the hooks of one event at once: each appends its line in one write.
  await writeFile(eventLogger, `#!/bin/sh\nline=$(cat)\nprintf '%s\\n' "$line" >> '${eventsFile}'\n`, { mode: 0o755 });

  let serve: Serve | null = null;
  return {
    root,
    workspace,
    home,
    env,
    eventLogger,
    rawEvents: () => readLines(eventsFile),
    hookLog: () => readFile(join(root, 'state', 'turnback', 'hook.log'), 'utf8').catch(() => ''),
    init: async (args) => {
      // --no-start: the suites run their own `turnback serve` on a port of theirs; init would
      // otherwise start the person's service first, and serve would refuse a second one.
      const run = await runCommand(process.execPath, [cli, 'init', ...args, '--no-start'], { env });
      if (run.code !== 0) throw new Error(`turnback init ${args.join(' ')} failed: ${run.stderr}`);
      return run.stdout;
    },
    serve: async () => {
      serve ??= await startServe(cli, workspace, join(root, 'data'), env);
    },
    console: async <T>(method: string, path: string, body?: unknown) => {
      if (!serve) throw new Error('turnback serve is not started');
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
    close: async (stopFirst) => {
      await stopFirst?.();
      if (serve) await stopServe(serve);
      if (process.env.TURNBACK_KEEP_SANDBOX) process.stderr.write(`kept the sandbox ${root}\n`);
      else await rm(root, { recursive: true, force: true });
    },
  };
}
