// Opens the real engine on a sandbox, optionally with the fault controller on its filesystem
// seam, and gets rid of an engine "killed" by a crash so the store can be reopened.
import { spawnSync } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Engine } from '../../server/engine/api.js';
import type { EngineContext } from '../../server/engine/context.js';
import { EngineFs, fsTreeWatcher, openEngine } from '../../server/engine/index.js';
import type { Lock } from '../../server/engine/lock.js';
import type { FaultController } from './fault-controller.testutil.js';
import type { Sandbox } from '../../server/testkit/sandbox.js';

/** Real time plus an offset a scenario moves forward (retention is about days). */
export interface TestClock {
  now(): number;
  passDays(days: number): void;
}

const clocks = new Map<string, TestClock>();

/**
 * The clock of the engines opened on one data dir: only ever moved forward, so an engine
 * reopened after a cut sees time go on; one per store, so sandboxes running side by side
 * never move each other's time.
 */
export function clockOf(dataDir: string): TestClock {
  let clock = clocks.get(dataDir);
  if (!clock) {
    let offsetMs = 0;
    clock = {
      now: () => Date.now() + offsetMs,
      passDays: (days) => {
        offsetMs += days * 86_400_000;
      },
    };
    clocks.set(dataDir, clock);
  }
  return clock;
}

let watching = false;

/** Whether the engines opened from now on run the service's filesystem watcher (the suites' watcher path). */
export function useWatcher(on: boolean): void {
  watching = on;
}

export function watcherOn(): boolean {
  return watching;
}

export interface TestEngineOptions {
  controller?: FaultController;
  keepSessions?: number;
  maxFileSize?: number;
}

export async function openTestEngine(sandbox: Sandbox, opts: TestEngineOptions): Promise<Engine> {
  return openEngine({
    workspace: sandbox.workspace,
    dataDir: sandbox.dataDir,
    scopes: ['*'],
    keepSessions: opts.keepSessions ?? 0,
    maxFileSize: opts.maxFileSize,
    now: clockOf(sandbox.dataDir).now,
    fs: opts.controller ? new EngineFs({ beforeOp: opts.controller.beforeOp }) : undefined,
    ...(watching ? { watcher: fsTreeWatcher } : {}),
  });
}

/**
 * A frozen engine never runs again, but it lives in this process: what the kernel would free
 * for a dead process is freed by hand. Its database handle is closed (uncommitted work cannot
 * exist: the store's transactions are synchronous), its lock socket closed, and its lock file
 * left naming a process that has exited.
 */
export async function abandonEngine(sandbox: Sandbox, engine: Engine): Promise<void> {
  (engine as unknown as { ctx: EngineContext }).ctx.store.close();
  await (engine as unknown as { lock: Lock }).lock.release();
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  await writeFile(join(sandbox.dataDir, 'store', 'lock'), JSON.stringify({ pid: dead, at: new Date().toISOString() }));
}

/** Files in the data dir that look like temp files (should be cleaned on open). */
export async function storeLeftovers(sandbox: Sandbox): Promise<string[]> {
  const found: string[] = [];
  async function walk(dir: string): Promise<void> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) await walk(abs);
      else if (/tmp|temp/i.test(e.name) && !/-(wal|shm)$/.test(e.name)) found.push(abs.slice(sandbox.base.length + 1));
    }
  }
  await walk(join(sandbox.dataDir, 'store'));
  return found;
}

const MUTATING_OPS = new Set([
  'mkdir',
  'rmdir',
  'unlink',
  'rm',
  'rename',
  'symlink',
  'chmod',
  'writeFile',
  'open',
  'write',
  'copyFile',
  'cp',
]);

/** Seam operations that change the filesystem (everything else only reads). */
export function isMutatingOp(op: string): boolean {
  return MUTATING_OPS.has(op);
}
