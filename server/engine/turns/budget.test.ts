// The store budget (docs/api.md "Store budget"): random 20 MB rewrites under a 50 MB budget keep
// the store within the budget plus one turn's worth, the oldest unpinned sessions going first.
import { createHash, randomBytes } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, openEngineOn, type Sandbox } from '../../testkit/sandbox.js';

const MB = 1024 * 1024;
const BUDGET = 50 * MB;
const VERSION = 20 * MB;

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('store budget', () => {
  it('prunes the oldest unpinned sessions to stay within the budget; pinned and newest kept, each undone exactly', async () => {
    const file = path.join(box.workspace, 'big.bin');
    await writeFile(file, randomBytes(VERSION));
    const engine = await openEngineOn(box, { storeBudget: BUDGET });
    // Each session rewrites big.bin with new random bytes in one command; its turn's start is kept.
    const starts = new Map<string, { turnId: string; before: string }>();
    const rewrite = async (sessionId: string) => {
      const s = { sessionId };
      const before = digest(await readFile(file));
      const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'rewrite' });
      const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'head -c 20M /dev/urandom > big.bin' });
      await writeFile(file, randomBytes(VERSION));
      await engine.execEnd({ ...s, execId: execId! });
      await engine.turnEnd(s);
      starts.set(sessionId, { turnId: turnId!, before });
      const { budget } = engine.storeStats();
      expect(budget.bytes).toBe(BUDGET);
      // Within the budget plus one turn's worth (the turn just committed), with room for the database.
      expect(budget.used).toBeLessThanOrEqual(BUDGET + VERSION + MB);
    };
    for (const id of ['s1', 's2', 's3', 's4']) await rewrite(id);
    const before = engine.storeStats().budget.prunedForBudget;
    expect(before).toBeGreaterThan(0);
    expect(engine.listSessions().map((s) => s.sessionId)).not.toContain('s1');
    await engine.pin({ name: 'known good' });
    for (const id of ['s5', 's6']) await rewrite(id);
    const kept = engine.listSessions().map((s) => s.sessionId);
    // s4 was last active before the pin: the budget takes it. s5 and s6 came after it: kept.
    expect(kept).not.toContain('s4');
    expect(kept).toEqual(expect.arrayContaining(['s5', 's6']));
    expect(engine.storeStats().budget.prunedForBudget).toBeGreaterThan(before);
    // Every kept turn still rolls back exactly, newest first.
    for (const id of ['s6', 's5']) {
      const { turnId, before: start } = starts.get(id)!;
      expect(await engine.rollback(turnId)).toMatchObject({ ok: true });
      expect(digest(await readFile(file))).toBe(start);
    }
    await engine.close();
  }, 120_000);

  it('skips `budget` a content larger than the budget on its own, says so in the turn, and keeps every other turn exact', async () => {
    const small = path.join(box.workspace, 'small.bin');
    const big = path.join(box.workspace, 'big.bin');
    await writeFile(small, randomBytes(MB));
    const engine = await openEngineOn(box, { storeBudget: 6 * MB });
    const starts = new Map<string, { turnId: string; before: string }>();
    /** One session: a command rewrites small.bin with 1 MB and big.bin with 20 MB of new random bytes. */
    const rewrite = async (sessionId: string) => {
      const s = { sessionId };
      const before = digest(await readFile(small));
      const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'rewrite' });
      const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'rewrite small.bin and big.bin' });
      await writeFile(small, randomBytes(MB));
      await writeFile(big, randomBytes(VERSION));
      await engine.execEnd({ ...s, execId: execId! });
      await engine.turnEnd(s);
      starts.set(sessionId, { turnId: turnId!, before });
      // The 20 MB content was never stored: the store stays within its budget plus one turn's worth.
      expect(engine.storeStats().budget.used).toBeLessThanOrEqual(6 * MB + 2 * MB);
      return { turnId: turnId!, execId: execId! };
    };
    for (const id of ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8']) {
      const { turnId, execId } = await rewrite(id);
      const manifest = engine.getManifest(turnId);
      expect(manifest.turn.skippedCount).toBeGreaterThan(0);
      expect(manifest.files.find((f) => f.uri.endsWith('/big.bin'))?.skipped).toBe('budget');
      expect(manifest.files.find((f) => f.uri.endsWith('/small.bin'))?.skipped).toBeUndefined();
      expect(engine.command(turnId, execId).skipped).toContainEqual(
        expect.objectContaining({ uri: expect.stringMatching(/\/big\.bin$/), reason: 'budget' }),
      );
    }
    expect(engine.storeStats().budget.prunedForBudget).toBeGreaterThan(0);
    expect(engine.listSessions().map((s) => s.sessionId)).not.toContain('s1');
    // big.bin cannot be driven back (its content was never kept): said so, the rest restored.
    const last = await engine.rollback(starts.get('s8')!.turnId);
    expect(last.errors).toContainEqual(
      expect.objectContaining({ uri: expect.stringMatching(/\/big\.bin$/), code: 'TOO_LARGE' }),
    );
    expect(digest(await readFile(small))).toBe(starts.get('s8')!.before);
    await rm(big);
    // Every other kept turn rolls back exactly, newest first.
    const kept = engine.listSessions().map((s) => s.sessionId);
    for (const id of ['s7', 's6', 's5', 's4', 's3', 's2'].filter((id) => kept.includes(id))) {
      const { turnId, before: start } = starts.get(id)!;
      await engine.rollback(turnId);
      expect(digest(await readFile(small))).toBe(start);
    }
    await engine.close();
  }, 120_000);
});
