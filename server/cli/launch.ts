// Runs a one-workspace server until SIGINT/SIGTERM (the demo): opens the engine, starts HTTP,
// prints the address line; on a signal commits active turns (engine.close) and returns 0. It is
// not the person's service: it writes no service.json and takes random tokens per launch.
import path from 'node:path';
import type { Engine } from '../engine/api.js';
import { openEngine } from '../engine/index.js';
import { claudeCodeRoutes } from '../adapters/claude-code/receive/route.js';
import { placeOfHookEvent } from '../adapters/hosts.js';
import { startServer, type RunningServer } from '../http/server.js';
import type { ServeFlags } from './args.js';
import { describeRecovery } from './recovery.js';
import { engineFailure, listenFailure, oneLine, StartupError } from './startup-errors.js';
import { checkWorkspace } from './workspace.js';

export interface LaunchOptions {
  flags: ServeFlags & { workspace: string };
  maxFileSize?: number;
  /** Runs after the engine opened and before the server listens (the demo seeds here). */
  prepare?: (engine: Engine) => Promise<void>;
}

export function waitForSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      // A second signal while shutting down means "now": give up on a clean stop.
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      resolve(signal);
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}

async function openChecked(options: LaunchOptions, workspace: string): Promise<Engine> {
  const { flags } = options;
  const dataDir = flags.data === undefined ? undefined : path.resolve(flags.data);
  try {
    return await openEngine({
      workspace,
      dataDir,
      scopes: flags.scopes,
      maxFileSize: options.maxFileSize ?? flags.maxFileSize,
      keepDays: flags.keepDays,
      keepSessions: flags.keepSessions,
      storeBudget: flags.storeBudget,
      exclude: flags.exclude,
      protect: flags.protect,
      log: (line) => process.stderr.write(`turnback: ${line}\n`),
    });
  } catch (err) {
    throw engineFailure(err, dataDir);
  }
}

async function listenChecked(engine: Engine, flags: ServeFlags): Promise<RunningServer> {
  try {
    return await listenOn(engine, flags, flags.port);
  } catch (err) {
    // 4820 taken (another user's service, say) and no --port given: any free port, printed.
    if (!flags.portGiven && (err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      try {
        return await listenOn(engine, flags, 0);
      } catch (again) {
        throw listenFailure(again, 0);
      }
    }
    throw listenFailure(err, flags.port);
  }
}

function listenOn(engine: Engine, flags: ServeFlags, port: number): Promise<RunningServer> {
  return startServer({
    engine,
    port,
    token: flags.token,
    agentToken: flags.agentToken,
    // The agent adapters' routes: the CLI is where engine, http and adapters meet.
    routes: claudeCodeRoutes(),
    readHookPlace: placeOfHookEvent,
    log: { error: (line) => process.stderr.write(`${line}\n`) },
  });
}

export async function launch(options: LaunchOptions): Promise<number> {
  let engine: Engine | undefined;
  let server: RunningServer | undefined;
  // Signals that arrive while starting are handled once the server is up.
  const stopRequested = waitForSignal();
  try {
    const workspace = checkWorkspace(options.flags.workspace);
    engine = await openChecked(options, workspace);
    if (options.prepare) await options.prepare(engine);
    server = await listenChecked(engine, options.flags);
    process.stdout.write(`turnback listening on ${server.url}\n`);
    process.stdout.write(`workspace ${workspace}\ndata      ${engine.dataDir}\n`);
    for (const line of describeRecovery(engine.recovery)) process.stdout.write(`${line}\n`);
    process.stdout.write(
      'open the address above in a browser; Ctrl-C stops the server (active turns are committed first)\n',
    );
  } catch (err) {
    await server?.close();
    await engine?.close().catch(() => {});
    const message =
      err instanceof StartupError ? err.message : `cannot start: ${(err as Error).message ?? String(err)}`;
    process.stderr.write(`turnback: ${oneLine(message)}\n`);
    return 2;
  }

  await stopRequested;
  await server.close();
  // Commits the turns agents left active, so a restart can roll them back exactly.
  await engine.close();
  return 0;
}
