// The store budget (docs/api.md "Store budget"): random 20 MB rewrites under a 50 MB budget keep
// the store within the budget plus one turn's worth, the oldest unpinned sessions going first.
import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
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
});
