// Packing gives way to the agent: it waits while a request is served or was within the quiet
// period, goes on after it until everything is packed, and never keeps settled() or close()
// waiting for the agent.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DeltaRig, deltaRig, edited, sourceText } from './deltas.testutil.js';
import { Housekeeping, QUIET_MS, type AgentActivity } from './housekeeping.js';
import { rawContents } from '../../testkit/contents.js';
import { makeSandbox } from '../../testkit/engine-harness.js';

let rig: DeltaRig;
beforeEach(async () => {
  rig = await deltaRig();
});
afterEach(async () => {
  await rig.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (i: number) => Buffer.from(`version ${i} of a source file\n`.repeat(400));

/** `n` compressible contents captured raw (text(from)…), as a turn would; answers their hashes. */
function capture(n: number, from = 0): string[] {
  const batch = rig.contents.batch();
  const hashes = Array.from({ length: n }, (_, i) => batch.keepBytes(text(from + i)).hash);
  rig.store.transaction(() => batch.commit());
  return hashes;
}

const unpacked = () =>
  (rig.store.db.prepare('SELECT COUNT(*) AS n FROM contents WHERE packed = 0').get() as { n: number }).n;

/** An agent the test serves by hand: `busy()` while a request runs, `done()` when it ends. */
function agent(): AgentActivity & { busy(): void; done(): void } {
  const state = { active: false, lastActiveAt: -Infinity };
  return {
    get active() {
      return state.active;
    },
    get lastActiveAt() {
      return state.lastActiveAt;
    },
    busy() {
      state.active = true;
      state.lastActiveAt = performance.now();
    },
    done() {
      state.active = false;
      state.lastActiveAt = performance.now();
    },
  };
}

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const end = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > end) throw new Error('timed out');
    await pause(10);
  }
}

describe('packing and the agent', () => {
  it('waits while a request is served, and packs everything once the agent has been quiet', async () => {
    const served = agent();
    const housekeeping = new Housekeeping(rig.contents, rig.store, { agent: served, quietMs: 100 });
    const hashes = capture(20);
    served.busy();
    housekeeping.schedule();
    await pause(300);
    expect(unpacked()).toBe(20);
    served.done();
    await pause(50); // within the quiet period: still waiting
    expect(unpacked()).toBe(20);
    await until(() => unpacked() === 0);
    expect(housekeeping.yields).toBeGreaterThan(0);
    hashes.forEach((hash, i) => expect(rig.contents.read(hash).equals(text(i))).toBe(true));
    await housekeeping.close();
  });

  it('stops between two contents when a request comes, and goes on after it', async () => {
    const served = agent();
    const housekeeping = new Housekeeping(rig.contents, rig.store, { agent: served, quietMs: 100 });
    capture(200);
    housekeeping.schedule();
    await until(() => unpacked() < 200);
    served.busy();
    const atRequest = unpacked();
    await pause(300);
    // At most the content being encoded when the request came was finished.
    expect(unpacked()).toBeGreaterThanOrEqual(atRequest - 1);
    expect(unpacked()).toBeGreaterThan(0);
    served.done();
    await until(() => unpacked() === 0);
    await housekeeping.close();
  });

  it("a round's commit waits for the agent too: a request during its last content sees nothing committed", async () => {
    capture(16);
    const unpackedAtEachWait: number[] = [];
    const before = () => {
      unpackedAtEachWait.push(unpacked());
      return Promise.resolve(true);
    };
    expect(await rig.contents.pack(16, before)).toBe(16);
    // One wait before each content, then one before the round's commit, all before anything is packed.
    expect(unpackedAtEachWait).toEqual(Array.from({ length: 17 }, () => 16));
    expect(unpacked()).toBe(0);
  });

  it('settled() packs everything without waiting for the agent, even one waiting already', async () => {
    const served = agent();
    const housekeeping = new Housekeeping(rig.contents, rig.store, { agent: served, quietMs: 60_000 });
    const hashes = capture(20);
    served.busy();
    housekeeping.schedule();
    await pause(50);
    const started = performance.now();
    await housekeeping.settled();
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(unpacked()).toBe(0);
    hashes.forEach((hash, i) => expect(rig.contents.read(hash).equals(text(i))).toBe(true));
    // Once settled() is done, packing gives way again.
    capture(5, 100);
    housekeeping.schedule();
    await pause(200);
    expect(unpacked()).toBe(5);
    await housekeeping.close();
  });

  it('close() while packing waits for the agent returns at once, every content still readable', async () => {
    const served = agent();
    const housekeeping = new Housekeeping(rig.contents, rig.store, { agent: served, quietMs: 60_000 });
    const hashes = capture(10);
    served.busy();
    housekeeping.schedule();
    await pause(50);
    const started = performance.now();
    await housekeeping.close();
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(unpacked()).toBe(10);
    hashes.forEach((hash, i) => expect(rig.contents.read(hash).equals(text(i))).toBe(true));
  });

  it('a content removed while packing waited is left out, the others packed', async () => {
    const served = agent();
    const housekeeping = new Housekeeping(rig.contents, rig.store, { agent: served, quietMs: 100 });
    const hashes = capture(6);
    served.busy();
    housekeeping.schedule();
    await pause(50);
    rig.store.transaction(() => rig.contents.removeAll([hashes[0], hashes[3]]));
    served.done();
    await until(() => unpacked() === 0);
    expect(housekeeping.lastFailure).toBeNull();
    for (const i of [1, 2, 4, 5]) expect(rig.contents.read(hashes[i]).equals(text(i))).toBe(true);
    expect(rig.contents.has(hashes[0])).toBe(false);
    await housekeeping.close();
  });
});

describe('property: any interleaving of captures, requests, removals and settled()', () => {
  it('while a request is served at most the content in hand gets packed; in the end every kept content is packed and reads back', async () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('edit' as const), path: fc.integer({ min: 0, max: 2 }), seed: fc.nat(1e6) }),
      fc.record({ kind: fc.constant('busy' as const) }),
      fc.record({ kind: fc.constant('done' as const) }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 25 }) }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('settled' as const) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 30 }), async (steps) => {
        const local = await deltaRig();
        const served = agent();
        const housekeeping = new Housekeeping(local.contents, local.store, { agent: served, quietMs: 10 });
        // Opaque keys (hex of whatever the column holds), to follow contents across their moves.
        const rawKeys = () =>
          new Set(
            (
              local.store.db.prepare('SELECT hex(hash) AS k FROM contents WHERE packed = 0').all() as { k: string }[]
            ).map((r) => r.k),
          );
        const packedKeys = () =>
          new Set(
            (
              local.store.db.prepare('SELECT hex(hash) AS k FROM contents WHERE packed = 1').all() as { k: string }[]
            ).map((r) => r.k),
          );
        try {
          const current = [0, 1, 2].map((p) => sourceText(200 + p, 200));
          const kept = new Map<string, Buffer>();
          /** Raw when the request began (null: no request is being served, or settled() ran since). */
          let rawAtBusy: Set<string> | null = null;
          for (const s of steps) {
            if (s.kind === 'edit') {
              const next = edited(current[s.path], s.seed);
              const { before, after } = local.turn(`workspace:/f${s.path}`, current[s.path], next);
              kept.set(before!, current[s.path]);
              kept.set(after, next);
              current[s.path] = next;
              // Captured while a request is served: it too waits for the agent.
              if (rawAtBusy) for (const k of rawKeys()) rawAtBusy.add(k);
              housekeeping.schedule();
            } else if (s.kind === 'busy') {
              if (!served.active) rawAtBusy = rawKeys();
              served.busy();
            } else if (s.kind === 'done') {
              served.done();
              rawAtBusy = null;
            } else if (s.kind === 'wait') {
              await pause(s.ms);
            } else if (s.kind === 'remove') {
              const all = [...kept.keys()];
              if (all.length === 0) continue;
              const going = all[s.pick % all.length];
              local.store.transaction(() => local.contents.removeAll([going]));
              kept.delete(going);
            } else {
              await housekeeping.settled();
              expect(rawKeys().size).toBe(0);
              if (served.active) rawAtBusy = rawKeys();
            }
            if (rawAtBusy) {
              const packed = packedKeys();
              expect([...rawAtBusy].filter((k) => packed.has(k)).length).toBeLessThanOrEqual(1);
            }
          }
          served.done();
          await housekeeping.settled();
          expect(housekeeping.lastFailure).toBeNull();
          expect(rawKeys().size).toBe(0);
          for (const [hash, bytes] of kept) expect(local.contents.read(hash).equals(bytes)).toBe(true);
        } finally {
          await housekeeping.close();
          await local.close();
        }
      }),
      { numRuns: process.env.CI ? 40 : 20 },
    );
  }, 120_000);
});

describe('the engine', () => {
  it("a turn begun right after another captures beside no packing: the last one's waits, then is done by itself", async () => {
    const sandbox = await makeSandbox();
    const engine = await sandbox.open();
    const raw = () => rawContents(sandbox.dataDir).raw;
    const s = { sessionId: 's1' };
    const turn = async (n: number, first: number) => {
      await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: `write ${n}` });
      for (let i = 0; i < n; i++) await engine.storage.writeFile(`workspace:/f${first + i}.txt`, text(first + i), s);
    };
    await turn(10, 0);
    await engine.turnEnd(s);
    await turn(10, 10);
    // The first turn's contents wait for the second's requests.
    expect(raw()).toBeGreaterThanOrEqual(10);
    await engine.turnEnd(s);
    const ended = performance.now();
    await until(() => raw() === 0);
    expect(performance.now() - ended).toBeGreaterThanOrEqual(QUIET_MS - 50);
  });
});
