// The engine's public entry: `openEngine(options)` and the error classes.
import { DEFAULT_IGNORED_BUDGET } from './record/ignored-folders.js';
import path from 'node:path';
import { makePrivateDir } from '../private-dir.js';
import { turnbackStateDir, workspaceIdOf } from '../state-dir.js';
import type { Engine, EngineOptions, RootSpec } from './api.js';
import { ContentStore } from './content/contents.js';
import type { EngineContext } from './context.js';
import { compileGlobs } from './paths/exclude.js';
import { TurnbackEngine } from './engine.js';
import { BadRequestError, DataDirNotPrivateError } from './errors.js';
import { Events } from './events.js';
import { ExecScans } from './record/exec.js';
import { EngineFs, realpathOrSelf } from './paths/fs.js';
import { ContentHolders } from './content/holders.js';
import { Housekeeping } from './content/housekeeping.js';
import { ActiveTurns } from './turns/active-turns.js';
import { acquireLock } from './lock.js';
import { KeyedQueue } from './queue.js';
import { recover } from './turns/recovery.js';
import { Rollbacks } from './rollback/rollback.js';
import { finishOverwrites } from './rollback/overwrite-repair.js';
import { Roots } from './paths/roots.js';
import { ControlledStorage, Mutations } from './record/storage.js';
import { withCodedErrors } from './system-errors.js';
import { Store } from './db/store.js';
import { readBudgetSetting } from './db/budget-setting.js';
import type { WatcherFactory } from './record/watch/tree-watcher.js';
import { watchSpecOf } from './record/watch/watch-spec.js';

export * from './errors.js';
export { ForbiddenError, NoSpaceError } from './system-errors.js';
export { SchemaTooNewError, SCHEMA_VERSION } from './db/schema.js';
export { EngineFs, TEMP_PREFIX, type BeforeOp, type FsOpName } from './paths/fs.js';
export type { RecoveryReport } from './turns/recovery.js';
export type { TurnbackEngine } from './engine.js';
export type * from './api.js';
export { fsTreeWatcher } from './record/watch/fs-watcher.js';
export type { DirtyPath, TreeWatcher, WatcherFactory, WatchSpec } from './record/watch/tree-watcher.js';

export const DEFAULT_MAX_FILE_SIZE = 64 * 1024 * 1024;
export const DEFAULT_EXCLUDE = ['.git/**', 'node_modules/**'];

/** `${XDG_STATE_HOME:-~/.local/state}/turnback`: where data dirs and server files live. */
export function stateHome(): string {
  return turnbackStateDir();
}

/** `<stateHome>/<name>-<first 12 hex of sha256(realpath)>`: outside the workspace. */
export function defaultDataDir(workspace: string): string {
  return path.join(stateHome(), workspaceIdOf(realpathOrSelf(workspace)));
}

export interface OpenEngineOptions extends EngineOptions {
  /** The filesystem seam (tests inject faults through it). */
  fs?: EngineFs;
  /** Clock, for tests. */
  now?: () => number;
  /** A turn a crash left active, resumed, is committed once its session records nothing for this long (tests shorten it). */
  resumedTurnWaitMs?: number;
  /** A rollback places contents in batches of about this many bytes (default 64 MiB). */
  placeBatchBytes?: number;
  /** Where the engine's log lines go (the CLI: stderr). */
  log?: (line: string) => void;
  /**
   * Keeps a command's scans to the paths that changed (the service passes `fsTreeWatcher`).
   * Without one, every command scans the whole tree, as the library always has.
   */
  watcher?: WatcherFactory;
}

export async function openEngine(options: OpenEngineOptions): Promise<Engine & TurnbackEngine> {
  if (!options || typeof options.workspace !== 'string' || options.workspace === '')
    throw new BadRequestError('workspace is required');
  const fs = options.fs ?? new EngineFs();
  const workspace = path.resolve(options.workspace);
  const stats = await fs.stat(workspace).catch(() => null);
  if (!stats?.isDirectory())
    throw new BadRequestError(`the workspace ${workspace} is not a readable directory`, { workspace });
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir(workspace));
  const storeDir = path.join(dataDir, 'store');
  // Private at rest: the store holds the contents of people's files (0700 folders, 0600 files).
  for (const dir of [dataDir, storeDir, path.join(dataDir, 'files'), path.join(dataDir, 'tmp')]) {
    const reason = makePrivateDir(dir);
    if (reason) throw new DataDirNotPrivateError(dir, reason);
  }
  const lock = await acquireLock(dataDir, storeDir);
  let store: Store;
  try {
    store = new Store(path.join(storeDir, 'turnback.db'));
  } catch (e) {
    await lock.release();
    throw e;
  }
  const contents = new ContentStore(store);
  try {
    const specs: RootSpec[] = [
      { name: 'workspace', kind: 'workspace', path: workspace },
      { name: 'data', kind: 'data', path: path.join(dataDir, 'files') },
      { name: 'tmp', kind: 'tmp', path: path.join(dataDir, 'tmp') },
      ...(options.roots ?? []),
    ];
    const now = options.now ?? Date.now;
    const events = new Events();
    const holders = new ContentHolders();
    const queue = new KeyedQueue();
    const ctx: EngineContext = {
      fs,
      store,
      dataDir,
      roots: await Roots.create(fs, specs, dataDir, storeDir),
      contents,
      // Packing gives way to the agent's requests, which all pass through the session queues.
      housekeeping: new Housekeeping(contents, store, { agent: queue }),
      events,
      queue,
      limits: {
        maxFileSize: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE,
        maxDeleteFiles: options.maxDeleteFiles ?? 100_000,
        maxDeleteBytes: options.maxDeleteBytes ?? 2 * 1024 * 1024 * 1024,
        keepDays: options.keepDays ?? 30,
        keepSessions: options.keepSessions ?? 0,
        storeBudget: readBudgetSetting(store) ?? options.storeBudget ?? null,
        openedBudget: options.storeBudget ?? null,
        placeBatchBytes: options.placeBatchBytes ?? 64 * 1024 * 1024,
        exclude: compileGlobs(options.exclude ?? DEFAULT_EXCLUDE),
        ignoredBudget: options.ignoredBudget === undefined ? DEFAULT_IGNORED_BUDGET : options.ignoredBudget,
        protect: compileGlobs(options.protect ?? []),
        scopes: options.scopes ?? ['webui:*'],
      },
      turns: new ActiveTurns(store, events, now),
      holders,
      retention: { pruned: 0, prunedForBudget: 0, toldForBudget: 0, prunedForPersonBudget: 0 },
      log: options.log ?? (() => undefined),
      now,
    };
    const execs = new ExecScans(ctx, options.watcher?.(watchSpecOf(ctx)) ?? null);
    holders.add(execs);
    ctx.scans = execs;
    const recovery = await recover(ctx, execs, (turnId) => finishOverwrites(ctx, turnId), options.resumedTurnWaitMs);
    const mutations = new Mutations(ctx);
    const engine = new TurnbackEngine(
      ctx,
      workspace,
      new ControlledStorage(ctx, mutations),
      mutations,
      new Rollbacks(ctx, mutations),
      execs,
      lock,
      recovery,
    );
    return withCodedErrors(engine, (abs) => ctx.roots.uriOf(abs));
  } catch (e) {
    store.close();
    await lock.release();
    throw e;
  }
}
