// The person's budget over all the service's workspaces (docs/api.md "Store budget"): two real
// workspaces under one host; the least recently active prunable session of any workspace goes
// first, until within the budget; never one being recorded, one a pin keeps, nor a workspace's
// latest; every turn kept still undoes exactly.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../engine/api.js';
import { openEngine } from '../engine/index.js';
import { snapshotTree } from '../testkit/tree.js';
import { WorkspaceHost } from './host.js';
import { PersonBudgetKeeper } from './person-budget.js';

const MB = 1024 * 1024;
/** Each rewrite keeps one new version of this size (the first also keeps the file's start). */
const VERSION = 8 * MB;

let root: string;
let host: WorkspaceHost;
let keeper: PersonBudgetKeeper | undefined;
let stopKeeper: (() => void) | undefined;
let logged: string[];
const repo = (name: 'alpha' | 'beta') => path.join(root, 'home', name);

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'turnback-person-budget-')));
  for (const name of ['alpha', 'beta'] as const) {
    await mkdir(path.join(repo(name), '.git'), { recursive: true });
    await writeFile(path.join(repo(name), 'big.bin'), randomBytes(VERSION));
  }
  logged = [];
  host = new WorkspaceHost({
    env: { HOME: path.join(root, 'home') },
    stateDir: path.join(root, 'state'),
    engineOptions: { scopes: ['*'], log: (line) => logged.push(line) },
    open: openEngine,
  });
});
afterEach(async () => {
  stopKeeper?.();
  await keeper?.settled();
  keeper = undefined;
  await host.close(5_000);
  await rm(root, { recursive: true, force: true });
});

function keep(flagBytes?: number): PersonBudgetKeeper {
  keeper = new PersonBudgetKeeper({
    source: host,
    stateDir: path.join(root, 'state'),
    flagBytes,
    log: (line) => logged.push(line),
  });
  stopKeeper = keeper.start();
  return keeper;
}

async function engineOf(name: 'alpha' | 'beta'): Promise<{ id: string; engine: Engine }> {
  const { id } = host.register(repo(name));
  return { id, engine: await host.engine(id) };
}

/** One session's turn: a command rewrites big.bin with new random bytes. Answers the turn and the tree at its start. */
async function rewrite(name: 'alpha' | 'beta', sessionId: string) {
  const { engine } = await engineOf(name);
  const start = await snapshotTree(repo(name), { ignore: ['.git'] });
  const s = { sessionId };
  const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'rewrite' });
  const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'head -c 8M /dev/urandom > big.bin' });
  await writeFile(path.join(repo(name), 'big.bin'), randomBytes(VERSION));
  await engine.execEnd({ ...s, execId: execId! });
  await engine.turnEnd(s);
  await keeper?.settled();
  return { turnId: turnId!, start };
}

const sessionsOf = async (name: 'alpha' | 'beta') =>
  (await engineOf(name)).engine
    .listSessions()
    .map((s) => s.sessionId)
    .sort();
const budgetOf = async (name: 'alpha' | 'beta') => (await engineOf(name)).engine.storeStats().budget;

describe('the person budget over all workspaces', { timeout: 120_000 }, () => {
  it("prunes the oldest session of any workspace first (beta's, not alpha's newest), stops once within, and every kept turn undoes exactly", async () => {
    // beta: b1 keeps 2 versions, b2 one more; alpha: a1 2, a2 one more: 6 versions in all.
    const budget = 5.5 * VERSION;
    const k = keep(budget);
    await rewrite('beta', 'b1');
    const b2 = await rewrite('beta', 'b2');
    const a1 = await rewrite('alpha', 'a1');
    expect((await budgetOf('beta')).prunedForPersonBudget).toBe(0);
    const a2 = await rewrite('alpha', 'a2');
    // Over by the last one: b1 (the oldest of all) goes, and that is enough (its start was its own).
    expect(await sessionsOf('beta')).toEqual(['b2']);
    expect(await sessionsOf('alpha')).toEqual(['a1', 'a2']);
    expect(await budgetOf('beta')).toMatchObject({ prunedForPersonBudget: 1, prunedForBudget: 0 });
    expect((await budgetOf('alpha')).prunedForPersonBudget).toBe(0);
    const status = k.status();
    expect(status).toMatchObject({ bytes: budget, source: 'service', workspaces: 2, prunedForPersonBudget: 1 });
    expect(status.used).toBeLessThanOrEqual(budget);
    expect(logged.filter((line) => /for the person budget/.test(line))).toEqual([
      expect.stringMatching(new RegExp(`pruned session b1 of ${repo('beta')} .*for the person budget`)),
    ]);
    // Told once, naming the workspace.
    expect(k.takeNews()).toBe(
      'turnback pruned the oldest session (of beta) to keep your stores within your 44.0 MiB budget (turnback budget --person changes it)',
    );
    expect(k.takeNews()).toBeNull();

    // Every turn kept rolls back exactly, newest first: each tree is again what it was at its start.
    const alpha = (await engineOf('alpha')).engine;
    for (const turn of [a2, a1]) {
      expect(await alpha.rollback(turn.turnId)).toMatchObject({ ok: true });
      expect(await snapshotTree(repo('alpha'), { ignore: ['.git'] })).toEqual(turn.start);
    }
    const beta = (await engineOf('beta')).engine;
    expect(await beta.rollback(b2.turnId)).toMatchObject({ ok: true });
    expect(await snapshotTree(repo('beta'), { ignore: ['.git'] })).toEqual(b2.start);
  });

  it("never prunes a session being recorded, one a pin keeps, nor a workspace's latest; says once when it cannot get within", async () => {
    const k = keep();
    const beta = (await engineOf('beta')).engine;
    // b0's turn is being recorded (the oldest session of all), then b1 rewrites.
    await beta.input({ sessionId: 'b0', platform: 'webui', sessionType: 'chat', content: 'still working' });
    await rewrite('beta', 'b1');
    await rewrite('alpha', 'a1');
    const alpha = (await engineOf('alpha')).engine;
    const pin = await alpha.pin({ name: 'known good' });
    await rewrite('alpha', 'a2');
    expect(k.status()).toMatchObject({ bytes: null, source: 'none', prunedForPersonBudget: 0 });

    // A budget far under what is kept: only a1 (before the pin) may go.
    await k.set(1 * MB);
    expect(k.status()).toMatchObject({ bytes: MB, source: 'setting', prunedForPersonBudget: 1 });
    expect(await sessionsOf('beta')).toEqual(['b0', 'b1']);
    expect(await sessionsOf('alpha')).toEqual(['a2', pin.sessionId].sort());
    expect((await budgetOf('alpha')).prunedForPersonBudget).toBe(1);
    expect(logged.filter((line) => /no session may be pruned/.test(line))).toHaveLength(1);
    // Another commit over the budget: still nothing more goes, and it is not said again.
    await rewrite('alpha', 'a2');
    expect(await sessionsOf('alpha')).toEqual(['a2', pin.sessionId].sort());
    expect(logged.filter((line) => /no session may be pruned/.test(line))).toHaveLength(1);
    // Back to none: the setting's file is gone.
    expect(await k.set(null)).toMatchObject({ bytes: null, source: 'none' });
  });
});
