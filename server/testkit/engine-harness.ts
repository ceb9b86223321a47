// Shared set-up of the black-box engine specs: the test kit's sandbox per test (workspace, data
// dir and an "outside" dir, all real directories under os.tmpdir()), removed after it, engines
// that are always closed, trees planted byte for byte, and small helpers for turns and typed refusals.
import { mkdir, rm, symlink, writeFile, chmod } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { openEngine, type OpenEngineOptions } from '../engine/index.js';
import type { Engine } from '../engine/api.js';
import type { Turn } from '../protocol.js';
import { snapshotTree, type Tree } from './tree.js';
import { makeSandbox as makeTempSandbox } from './sandbox.js';

export interface Sandbox {
  base: string;
  workspace: string;
  dataDir: string;
  outside: string;
  /** Opens an engine on this sandbox (a test may pass its own filesystem seam); it is closed after the test. */
  open(options?: Partial<OpenEngineOptions>): Promise<Engine>;
  /** Snapshot of the workspace (the data dir is left out when it sits inside). */
  tree(): Promise<Tree>;
}

const openEngines = new Set<Engine>();
const sandboxes: string[] = [];

afterEach(async () => {
  for (const engine of [...openEngines]) {
    openEngines.delete(engine);
    await engine.close().catch(() => undefined);
  }
  for (const dir of sandboxes.splice(0)) await rm(dir, { recursive: true, force: true });
});

export async function makeSandbox(options: { dataInsideWorkspace?: string } = {}): Promise<Sandbox> {
  const { base, workspace, dataDir, outside } = await makeTempSandbox({}, { prefix: 'spec', outside: {}, ...options });
  sandboxes.push(base);
  const ignore = options.dataInsideWorkspace ? [options.dataInsideWorkspace] : [];
  return {
    base,
    workspace,
    dataDir,
    outside,
    open: (extra = {}) => openTracked({ workspace, dataDir, ...extra }),
    tree: () => snapshotTree(workspace, { ignore }),
  };
}

export async function openTracked(options: OpenEngineOptions): Promise<Engine> {
  const engine = await openEngine(options);
  openEngines.add(engine);
  const close = engine.close.bind(engine);
  // Closing twice (test + afterEach) must stay harmless, so the tracker forgets closed engines.
  (engine as { close: () => Promise<void> }).close = async () => {
    openEngines.delete(engine);
    await close();
  };
  return engine;
}

export type PlantSpec =
  | string
  | Uint8Array
  | { content: string | Uint8Array; mode: number }
  | { symlink: string }
  | { dir: true; mode?: number };

/** Creates the given paths under `root` exactly (parents made as needed). */
export async function plant(root: string, spec: Record<string, PlantSpec>): Promise<void> {
  for (const [rel, item] of Object.entries(spec)) {
    const abs = join(root, rel);
    await mkdir(dirname(abs), { recursive: true });
    if (typeof item === 'string' || item instanceof Uint8Array) {
      await writeFile(abs, item);
      await chmod(abs, 0o644);
    } else if ('symlink' in item) {
      await symlink(item.symlink, abs);
    } else if ('dir' in item) {
      await mkdir(abs, { recursive: true });
      await chmod(abs, item.mode ?? 0o755);
    } else {
      await writeFile(abs, item.content);
      await chmod(abs, item.mode);
    }
  }
}

export const ws = (path: string): string => `workspace:/${path}`;

/** A clock the test moves (the engine's `now`): what is about time is tested without waiting for it. */
export function testClock(start = Date.UTC(2026, 0, 1)) {
  const c = {
    t: start,
    now: () => c.t,
    pass: (ms: number) => {
      c.t += ms;
    },
  };
  return c;
}

export const SESSION = 's1';
export const who = (sessionId = SESSION) => ({ sessionId });

/** Begins a turn in a `webui:chat` session, runs `body`, commits; returns the turn id. */
export async function runTurn(
  engine: Engine,
  body: () => Promise<unknown>,
  options: { sessionId?: string; content?: string } = {},
): Promise<string> {
  const sessionId = options.sessionId ?? SESSION;
  const { turnId } = await engine.input({
    sessionId,
    platform: 'webui',
    sessionType: 'chat',
    content: options.content ?? 'do something',
  });
  expect(turnId, 'the turn begins').toBeTypeOf('string');
  await body();
  const ended = await engine.turnEnd({ sessionId });
  expect(ended.turnId).toBe(turnId);
  return turnId as string;
}

/** Expects the promise to reject with an engine error of `code`; returns that error. */
export async function expectCode(
  promise: Promise<unknown>,
  code: string,
): Promise<Error & { code: string; details?: Record<string, unknown> }> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected a rejection with code ${code}`).toBeInstanceOf(Error);
  expect((caught as { code?: string }).code).toBe(code);
  return caught as Error & { code: string; details?: Record<string, unknown> };
}

export function turnById(engine: Engine, sessionId: string, turnId: string): Turn {
  const turn = engine.listTurns(sessionId).find((t) => t.turnId === turnId);
  if (!turn) throw new Error(`turn ${turnId} not listed in ${sessionId}`);
  return turn;
}

/** Reads of a session that no longer (or never) existed: an empty answer or SESSION_NOT_FOUND, both fine. */
export function orNone<T>(read: () => T[]): T[] {
  try {
    return read();
  } catch (error) {
    if ((error as { code?: string }).code === 'SESSION_NOT_FOUND') return [];
    throw error;
  }
}

export function statusOf(engine: Engine, turnId: string): string {
  return engine.getManifest(turnId).turn.status;
}

export const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');
