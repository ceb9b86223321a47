// The person's service (`turnback serve`, and detached by `turnback start` or a hook): one per
// user (the lock), every registered workspace (the host), `service.json` for the CLI and the
// hooks. Runs until SIGINT/SIGTERM, then commits active turns and exits within its bound.
import { keepAgentNoticesIn } from '../adapters/core/agent-notices.js';
import path from 'node:path';
import { claudeCodeRoutes } from '../adapters/claude-code/receive/route.js';
import { placeOfHookEvent } from '../adapters/hosts.js';
import type { ServeFlags } from '../cli/args.js';
import { waitForSignal } from '../cli/launch.js';
import { describeRecovery } from '../cli/recovery.js';
import { engineFailure, listenFailure, oneLine, StartupError } from '../cli/startup-errors.js';
import { checkWorkspace } from '../cli/workspace.js';
import { fsTreeWatcher, openEngine } from '../engine/index.js';
import { startServer, type RunningServer } from '../http/server.js';
import { packageVersion } from '../http/version.js';
import { makePrivateDir } from '../private-dir.js';
import { statePathIn, turnbackStateDir, type StateFile } from '../state-dir.js';
import { keepCommitsLinked } from './commit-links.js';
import { PersonBudgetKeeper } from './person-budget.js';
import { WorkspaceHost } from './host.js';
import { acquireServiceLock, serviceLockHolder, type ServiceLock } from './lock.js';
import {
  readLastPort,
  readLiveService,
  removeServiceEntry,
  serviceSocketIn,
  SHUTDOWN_BOUND_MS,
  writeLastPort,
  writeServiceEntry,
} from './service-file.js';
import { commandLineWarning, serviceTokens } from './service-tokens.js';
import { TokenError } from './tokens.js';
import { SpoolIntake, spoolOrdered } from './spool-intake.js';
import { exactWorkspaceRoot } from './workspace-root.js';
import { setProjectUmask } from '../engine/paths/project-umask.js';

/** How often the service looks for events spooled while no live event came to take them in. */
const SPOOL_LOOK_MS = 1_000;

const say = (line: string): boolean => process.stdout.write(`${line}\n`);
const complain = (line: string): boolean => process.stderr.write(`turnback: ${line}\n`);

/** `quiet()` while starting: a default workspace that fails to open is the start's own one line. */
function makeHost(flags: ServeFlags, stateDir: string, quiet: () => boolean): WorkspaceHost {
  return new WorkspaceHost({
    stateDir,
    engineOptions: {
      scopes: flags.scopes,
      maxFileSize: flags.maxFileSize,
      keepDays: flags.keepDays,
      keepSessions: flags.keepSessions,
      storeBudget: flags.storeBudget,
      exclude: flags.exclude,
      log: (line) => complain(line),
      // One watcher per open workspace: a command's scans cost what it changed.
      watcher: fsTreeWatcher,
    },
    open: openEngine,
    indexInBackground: true,
    log: (line) => {
      if (!quiet()) complain(line);
    },
  });
}

/** Registers `--workspace` as the default and opens it now: a failure to open it fails the start, as it always has. */
async function openDefault(host: WorkspaceHost, flags: ServeFlags): Promise<void> {
  if (flags.workspace === undefined) return;
  checkWorkspace(flags.workspace);
  let root: string;
  try {
    root = exactWorkspaceRoot(flags.workspace);
  } catch (err) {
    throw new StartupError((err as Error).message);
  }
  const dataDir = flags.data === undefined ? undefined : path.resolve(flags.data);
  const entry = host.setDefault(root, dataDir);
  try {
    await host.engine(entry.id);
  } catch {
    // The host keeps the engine's own error as the workspace's reason.
    throw engineFailure(host.openError(entry.id), dataDir);
  }
}

/**
 * The ports to try, in order: `--port` alone when given; else the port of the last run (an open
 * tab finds its service again after a restart), then 4820, then any free port.
 */
function portsToTry(flags: ServeFlags, stateDir: string): number[] {
  if (flags.portGiven) return [flags.port];
  return [...new Set([readLastPort(stateDir), flags.port, 0].filter((port): port is number => port !== undefined))];
}

async function listen(
  flags: ServeFlags,
  stateDir: string,
  host: WorkspaceHost,
  tokens: { console: string; agent: string },
  intake: SpoolIntake,
  personBudget: PersonBudgetKeeper,
): Promise<RunningServer> {
  const start = (port: number) =>
    startServer({
      source: host,
      port,
      token: tokens.console,
      agentToken: tokens.agent,
      routes: spoolOrdered(claudeCodeRoutes({ personBudgetNews: () => personBudget.takeNews() }), intake),
      personBudget,
      readHookPlace: placeOfHookEvent,
      socketPath: serviceSocketIn(stateDir),
      log: { error: (line) => process.stderr.write(`${line}\n`) },
    });
  const ports = portsToTry(flags, stateDir);
  for (const [i, port] of ports.entries()) {
    try {
      return await start(port);
    } catch (err) {
      // A port taken: the next one, recorded in service.json.
      if (i === ports.length - 1 || (err as NodeJS.ErrnoException).code !== 'EADDRINUSE')
        throw listenFailure(err, port);
    }
  }
  throw new StartupError('no port to listen on');
}

/**
 * Where this service keeps its own files: `--state-dir`, else `--data` (a self-contained service
 * that never touches the person's state and runs beside their service), else the per-user state dir.
 */
export function serviceStateDir(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env): string {
  if (flags.stateDir !== undefined) return path.resolve(flags.stateDir);
  if (flags.data !== undefined) return path.resolve(flags.data);
  return turnbackStateDir(env);
}

export async function runService(flags: ServeFlags): Promise<number> {
  // Private at rest: whatever the service makes (state, stores, logs) is its user's alone.
  setProjectUmask(process.umask(0o077));
  const stopRequested = waitForSignal();
  const stateDir = serviceStateDir(flags);
  const ownFile = (file: StateFile) => statePathIn(stateDir, file);
  let lock: ServiceLock | null = null;
  let host: WorkspaceHost | undefined;
  let server: RunningServer | undefined;
  let entryFile: string | undefined;
  let stopLinking: (() => void) | undefined;
  let stopPersonBudget: (() => void) | undefined;
  try {
    const unsafe = makePrivateDir(stateDir);
    if (unsafe) {
      const role = flags.data !== undefined && stateDir === path.resolve(flags.data) ? 'data dir' : 'state dir';
      throw new StartupError(`the ${role} ${stateDir} ${unsafe}`);
    }
    const tokens = serviceTokens(flags, stateDir);
    keepAgentNoticesIn(stateDir);
    const warning = commandLineWarning(flags);
    if (warning) complain(warning);
    lock = await acquireServiceLock(stateDir);
    if (!lock) {
      const live = readLiveService(process.env, ownFile('service'));
      const pid = live?.pid ?? serviceLockHolder(stateDir);
      const personal = stateDir === turnbackStateDir();
      const running = `a turnback service already runs ${personal ? 'for this user' : `on ${stateDir}`}`;
      throw new StartupError(
        `${running}${pid ? ` (pid ${pid}${live ? `, ${live.url}` : ''})` : ''}: stop it${personal ? ' with turnback stop' : ''}, or use its console`,
      );
    }
    let starting = true;
    host = makeHost(flags, stateDir, () => starting);
    await openDefault(host, flags);
    const listening = { up: false };
    const intake = new SpoolIntake(
      ownFile('spool'),
      () => (listening.up ? { socketPath: serviceSocketIn(stateDir), agentToken: tokens.agent } : undefined),
      complain,
    );
    // The person's budget over every workspace, kept in the background after commits.
    const personBudget = new PersonBudgetKeeper({
      source: host,
      stateDir,
      flagBytes: flags.personBudget,
      log: complain,
    });
    server = await listen(flags, stateDir, host, tokens, intake, personBudget);
    listening.up = true;
    // What hooks spooled while no service answered: taken in before they can find this one.
    await intake.drain(true);
    setInterval(() => void intake.drain(), SPOOL_LOOK_MS).unref();
    // Workspaces a stopped service left part-way (or never built): built again, after the start answers.
    host.resumeIndexBuilds();
    stopLinking = keepCommitsLinked(host, complain);
    stopPersonBudget = personBudget.start();
    const origin = `${server.origin}/`;
    entryFile = writeServiceEntry(
      {
        pid: process.pid,
        port: server.port,
        version: packageVersion(),
        startedAt: new Date().toISOString(),
        url: origin,
      },
      process.env,
      ownFile('service'),
    );
    writeLastPort(stateDir, server.port);
    const written = entryFile;
    process.on('exit', () => removeServiceEntry(written));
    say(`turnback listening on ${server.url}`);
    const defaultWorkspace = host.list().find((workspace) => workspace.isDefault);
    if (defaultWorkspace) {
      say(`workspace ${defaultWorkspace.root}\ndata      ${host.dataDirOf(defaultWorkspace.id)}`);
      for (const line of describeRecovery(host.recoveryOf(defaultWorkspace.id))) say(line);
    }
    starting = false;
    say(
      'open the address above in a browser; turnback stop (or Ctrl-C) stops the service (active turns are committed first)',
    );
  } catch (err) {
    await server?.close();
    await host?.close().catch(() => undefined);
    if (entryFile) removeServiceEntry(entryFile);
    await lock?.release();
    const message =
      err instanceof StartupError || err instanceof TokenError
        ? err.message
        : `cannot start: ${(err as Error).message ?? String(err)}`;
    complain(oneLine(message));
    return 2;
  }

  await stopRequested;
  // Past the bound the process goes anyway: a stuck store must not keep a stopped service alive.
  setTimeout(() => process.exit(0), SHUTDOWN_BOUND_MS + 2_000).unref();
  await server.close();
  stopLinking?.();
  stopPersonBudget?.();
  await host.close(SHUTDOWN_BOUND_MS);
  removeServiceEntry(entryFile);
  await lock.release();
  return 0;
}
