// Sessions pruned for the store budget are told to the person once, through the next hook's
// message (docs/api.md "Store budget"), and not again until more are.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../engine/api.js';
import { openEngine } from '../../engine/index.js';
import { claudeCodeHost } from '../claude-code/host.js';
import * as p from '../claude-code/test/payloads.js';
import { HostReceiver, type ReceiveResult } from './receiver.js';

let root: string;
let workspace: string;
let engine: Engine;
let receiver: HostReceiver;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-budget-news-'));
  workspace = join(root, 'workspace');
  await mkdir(workspace, { recursive: true });
  engine = await openEngine({
    workspace,
    dataDir: join(root, 'data'),
    scopes: ['claude-code:*'],
    storeBudget: 256 * 1024,
  });
  receiver = new HostReceiver(claudeCodeHost, { transcripts: { home: root, env: {} }, tellsAgents: () => false });
});
afterEach(async () => {
  await engine.close();
  await rm(root, { recursive: true, force: true });
});

const tellOf = (result: ReceiveResult) => (result.ok && result.outcome === 'forwarded' ? result.tell : undefined);

/** One session's turn: the Write tool writes 150 KB of random bytes to its own file. Answers what its hooks told. */
async function session(sessionId: string): Promise<string[]> {
  const c = { cwd: workspace, sessionId };
  const file = join(workspace, `${sessionId}.bin`);
  const results = [await receiver.receive(p.userPromptSubmit(c, `write ${sessionId}`), engine)];
  results.push(await receiver.receive(p.write(c, file, 'x'), engine));
  await writeFile(file, randomBytes(150 * 1024));
  results.push(await receiver.receive(p.stop(c), engine));
  return results.map(tellOf).filter((t): t is string => t !== undefined);
}

describe('sessions pruned for the store budget', () => {
  it('are told once through the next hook, and again only when more are pruned', async () => {
    const told: string[][] = [];
    for (const id of ['s1', 's2', 's3', 's4', 's5']) told.push(await session(id));
    const pruned = engine.storeStats().budget.prunedForBudget;
    expect(pruned).toBeGreaterThan(0);
    const lines = told.flat();
    // Each pruning told once, in one line the sh hook can pass on; never before any pruning.
    expect(told[0]).toEqual([]);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(pruned);
    for (const line of lines) {
      expect(line).toMatch(
        /^turnback pruned the (oldest session|\d+ oldest sessions) of .* to keep its store within its 0\.3 MiB budget/,
      );
      expect(line).not.toMatch(/["\\\n]/);
    }
    const counted = lines.reduce((n, line) => n + (Number(/pruned the (\d+) oldest/.exec(line)?.[1]) || 1), 0);
    expect(counted).toBe(pruned);
    // Nothing more pruned: the next hooks say nothing.
    const c = { cwd: workspace, sessionId: 's5' };
    expect(tellOf(await receiver.receive(p.userPromptSubmit(c, 'nothing'), engine))).toBeUndefined();
    expect(tellOf(await receiver.receive(p.stop(c), engine))).toBeUndefined();
  });
});
