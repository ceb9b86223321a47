// Delta chains in the content store: a new version of a path is kept as a delta against the
// version it replaced, chains stay bounded, a removal never takes a base a kept content needs,
// and a damaged or missing base makes what needs it UNRESTORABLE, never wrong bytes.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentParts } from './content-parts.js';
import { PART_SIZE, UnrestorableContentError } from './contents.js';
import { DECODE_BUDGET, DELTA_DEPTH } from './delta-chains.js';
import { type DeltaRig, deltaRig, edited, sourceText, versions } from './deltas.testutil.js';

let rig: DeltaRig;
beforeEach(async () => {
  rig = await deltaRig();
});
afterEach(async () => {
  await rig.close();
});

const URI = 'workspace:/src/app.ts';

/** Records `texts` as successive turns on one path; answers their hashes in order. */
function history(texts: Buffer[], uri = URI): string[] {
  const hashes: string[] = [];
  for (let i = 1; i < texts.length; i++) {
    const { before, after } = rig.turn(uri, texts[i - 1], texts[i]);
    if (i === 1) hashes.push(before!);
    hashes.push(after);
  }
  return hashes;
}

async function streamed(hash: string): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of rig.contents.chunks(hash)) parts.push(chunk);
  return Buffer.concat(parts);
}

function expectExact(hashes: string[], texts: Buffer[]): void {
  hashes.forEach((hash, i) => expect(rig.contents.read(hash).equals(texts[i]), `version ${i}`).toBe(true));
}

describe('delta chains', () => {
  it('keeps a new version as a delta of the one it replaced, and reads every version back byte for byte', async () => {
    const texts = versions(1, 3);
    const hashes = history(texts);
    await rig.packAll();
    const [v0, v1, v2] = hashes.map((h) => rig.row(h));
    expect(v0).toMatchObject({ codec: 'brotli', depth: 0, base_id: null });
    expect(v1).toMatchObject({ codec: 'zstd-delta', depth: 1, base_id: v0.id });
    expect(v2).toMatchObject({ codec: 'zstd-delta', depth: 2, base_id: v1.id });
    expect(v2.stored).toBeLessThan(texts[2].length / 50);
    expectExact(hashes, texts);
    expect((await streamed(hashes[2])).equals(texts[2])).toBe(true);
  });

  it(`keeps chains within ${DELTA_DEPTH} deltas, with one whole copy for a hundred versions`, async () => {
    const texts = versions(2, 100, 300);
    const hashes = history(texts);
    await rig.packAll();
    const rows = hashes.map((h) => rig.row(h));
    expect(Math.max(...rows.map((r) => r.depth))).toBe(DELTA_DEPTH);
    expect(rows.filter((r) => r.codec !== 'zstd-delta').length).toBe(1);
    expectExact(hashes, texts);
  });

  it('keeps what a read of a large file decodes along its chain within the budget', async () => {
    const texts = versions(13, 24, 9000);
    expect(texts[0].length).toBeGreaterThan(DECODE_BUDGET / 12);
    const hashes = history(texts);
    await rig.packAll();
    const decodedBy = (hash: string): number => {
      const row = rig.row(hash);
      const base =
        row.base_id === null
          ? undefined
          : (rig.store.db.prepare('SELECT lower(hex(hash)) AS hash FROM contents WHERE id = ?').get(row.base_id) as {
              hash: string;
            });
      return row.size + (base ? decodedBy(base.hash) : 0);
    };
    expect(Math.max(...hashes.map(decodedBy))).toBeLessThanOrEqual(DECODE_BUDGET);
    expect(hashes.map((h) => rig.row(h)).filter((r) => r.codec !== 'zstd-delta').length).toBe(1);
    expectExact(hashes, texts);
  });

  it("takes an original's base from the last version of its path in earlier turns (a change made between turns)", async () => {
    const [a, b, drifted, c] = [
      sourceText(3, 500),
      edited(sourceText(3, 500), 1),
      edited(edited(sourceText(3, 500), 1), 2),
      sourceText(4, 10),
    ];
    const first = rig.turn(URI, a, b);
    const second = rig.turn(URI, drifted, c);
    await rig.packAll();
    expect(rig.row(second.before!)).toMatchObject({ codec: 'zstd-delta', base_id: rig.row(first.after).id });
    expect(rig.contents.read(second.before!).equals(drifted)).toBe(true);
  });

  it("takes a renamed file's new content's base from its source's content", async () => {
    const [a, b] = versions(5, 2);
    const { before, after } = rig.turn(URI, a, b, 'workspace:/src/renamed.ts');
    await rig.packAll();
    expect(rig.row(after)).toMatchObject({ codec: 'zstd-delta', base_id: rig.row(before!).id });
    expect(rig.contents.read(after).equals(b)).toBe(true);
  });

  it('a pass of many contents of the same turns chooses the bases one content per pass would', async () => {
    // Three turns of several paths: created, changed (one renamed), then changed outside the
    // turns (originals, whose base is searched in earlier turns) and changed again.
    const record = (on: DeltaRig) => {
      const v = [0, 1, 2, 3, 4, 5].map((p) => versions(20 + p, 4));
      on.turnOf(v.map((texts, p) => ({ uri: `workspace:/f${p}`, before: null, after: texts[0] })));
      on.turnOf(
        v.map((texts, p) => ({
          uri: `workspace:/f${p}`,
          before: texts[0],
          after: texts[1],
          to: p === 2 ? 'workspace:/g2' : undefined,
        })),
      );
      on.turnOf(
        v.map((texts, p) => ({
          uri: p === 2 ? 'workspace:/g2' : `workspace:/f${p}`,
          before: texts[2],
          after: texts[3],
        })),
      );
    };
    const chosen = (on: DeltaRig) =>
      on.store.db
        .prepare(
          `SELECT lower(hex(c.hash)) AS hash, c.codec, c.depth, nullif(lower(hex(b.hash)), '') AS base FROM contents c
      LEFT JOIN contents b ON b.id = c.base_id ORDER BY c.hash`,
        )
        .all() as { base: string | null }[];
    const one = await deltaRig();
    try {
      record(rig);
      record(one);
      while ((await rig.contents.pack(256)) > 0) {
        /* one pass */
      }
      while ((await one.contents.pack(1)) > 0) {
        /* a pass per content */
      }
      const bases = chosen(rig);
      expect(bases.filter((r) => r.base !== null).length).toBe(18);
      expect(bases).toEqual(chosen(one));
    } finally {
      await one.close();
    }
  });

  it('encodes a large content part by part against the same parts of its base', async () => {
    const base = Buffer.concat([sourceText(6, 40_000), sourceText(7, 40_000)]);
    const next = Buffer.concat([Buffer.from('// a line at the top\n'), base]);
    expect(next.length).toBeGreaterThan(2 * PART_SIZE);
    const hashes = history([base, next]);
    await rig.packAll();
    expect(rig.row(hashes[1])).toMatchObject({ codec: 'zstd-delta', base_id: rig.row(hashes[0]).id });
    expect(rig.row(hashes[1]).stored).toBeLessThan(next.length / 100);
    expect((await streamed(hashes[1])).equals(next)).toBe(true);
  });
});

describe('packing rounds', () => {
  const newFiles = (count: number, seed: number) =>
    rig.turnOf(
      Array.from({ length: count }, (_, p) => ({
        uri: `workspace:/n${p}`,
        before: null,
        after: sourceText(seed + p, 80),
      })),
    );

  /** Every replacement of the content by an encoding fails, as a write to a failing disk would. */
  const failEncodingOf = (hash: string) => {
    const parts = (rig.contents as unknown as { parts: ContentParts }).parts;
    const replace = parts.replace.bind(parts);
    vi.spyOn(parts, 'replace').mockImplementation((row, next) => {
      if (rig.row(hash).id === row.id && next.codec !== row.codec) throw new Error('disk I/O error');
      return replace(row, next);
    });
  };

  it("commits a round's contents in one transaction", async () => {
    const hashes = newFiles(6, 40).map((c) => c.after);
    const commits = vi.spyOn(rig.store, 'relaxed');
    expect(await rig.contents.pack(256)).toBe(6);
    expect(commits).toHaveBeenCalledTimes(1);
    for (const h of hashes) expect(rig.row(h)).toMatchObject({ codec: 'brotli', packed: 1 });
  });

  it('a content whose replacement fails stays raw, and the rest of its round is packed', async () => {
    const texts = Array.from({ length: 6 }, (_, p) => sourceText(60 + p, 80));
    const hashes = newFiles(6, 60).map((c) => c.after);
    failEncodingOf(hashes[2]);
    // Reported once the round is done (housekeeping keeps it as its last failure).
    await expect(rig.packAll()).rejects.toThrow('disk I/O error');
    await rig.packAll();
    const rows = hashes.map((h) => rig.row(h));
    expect(rows.map((r) => r.packed)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(rows.map((r) => r.codec)).toEqual(['brotli', 'brotli', 'raw', 'brotli', 'brotli', 'brotli']);
    expectExact(hashes, texts);
  });

  it('a failure committing the round before a base is chosen is reported too', async () => {
    const [a, b] = versions(90, 2);
    const { before, after } = rig.turn(URI, a, b);
    failEncodingOf(before!);
    await expect(rig.packAll()).rejects.toThrow('disk I/O error');
    await rig.packAll();
    expect(rig.row(before!)).toMatchObject({ codec: 'raw', packed: 1 });
    expect(rig.contents.read(before!).equals(a)).toBe(true);
    expect(rig.contents.read(after).equals(b)).toBe(true);
  });

  it("reads an ended turn's entries once for all passes, and a turn still going again in each", async () => {
    const [a, b] = [sourceText(80, 300), edited(sourceText(80, 300), 1)];
    const going = (turnId: string) =>
      rig.store.db.prepare(`UPDATE turns SET status = 'active', ended_at = NULL WHERE turn_id = ?`).run(turnId);
    const reads = vi.spyOn(rig.store.entries, 'of');
    const readsOf = (turnId: string) => reads.mock.calls.filter(([id]) => id === turnId).length;
    const first = rig.turn(URI, a, b);
    going('t1');
    await rig.packAll();
    expect(readsOf('t1')).toBe(1);
    // Each later turn begins from a version changed between turns: its base is searched in t1 too.
    let last = b;
    const later = (seed: number) => {
      const drifted = edited(last, seed);
      last = edited(drifted, seed + 1);
      return { drifted, ...rig.turn(URI, drifted, last) };
    };
    const second = later(2);
    await rig.packAll();
    expect(readsOf('t1')).toBe(2); // still going when the first pass read it
    expect(readsOf('t2')).toBe(1);
    const third = later(4); // its original's base is searched in t2, ended when read
    await rig.packAll();
    expect(readsOf('t2')).toBe(1);
    expect(rig.row(second.before!)).toMatchObject({ codec: 'zstd-delta', base_id: rig.row(first.after).id });
    expect(rig.row(third.before!)).toMatchObject({ codec: 'zstd-delta', base_id: rig.row(second.after).id });
    expect(rig.contents.read(third.before!).equals(third.drifted)).toBe(true);
  });
});

describe('removing contents of a chain', () => {
  it('writes a kept dependant of a removed base back raw, packs it again, and changes no byte', async () => {
    const texts = versions(8, 6);
    const hashes = history(texts);
    await rig.packAll();
    rig.store.transaction(() => rig.contents.removeAll([hashes[2]]));
    expect(rig.row(hashes[3])).toMatchObject({ codec: 'raw', base_id: null, packed: 0 });
    expectExact([...hashes.slice(0, 2), ...hashes.slice(3)], [...texts.slice(0, 2), ...texts.slice(3)]);
    await rig.packAll();
    // It has dependants of its own: it becomes whole, and their chain never grows back.
    expect(rig.row(hashes[3])).toMatchObject({ codec: 'brotli', depth: 0 });
    expect(rig.row(hashes[4])).toMatchObject({ codec: 'zstd-delta', base_id: rig.row(hashes[3]).id });
    expectExact([...hashes.slice(0, 2), ...hashes.slice(3)], [...texts.slice(0, 2), ...texts.slice(3)]);
  });

  it('removes a base together with its dependants without writing them back first', async () => {
    const texts = versions(9, 5);
    const hashes = history(texts);
    await rig.packAll();
    rig.store.transaction(() => rig.contents.removeAll(hashes.slice(1)));
    expect(rig.contents.stats().blobs).toBe(1);
    expect(rig.store.db.prepare('SELECT COUNT(*) AS n FROM contents WHERE base_id IS NOT NULL').get()).toEqual({
      n: 0,
    });
    expectExact([hashes[0]], [texts[0]]);
  });

  it('a base removed while its dependant is being encoded: the dependant stays raw, then becomes whole', async () => {
    const texts = versions(10, 2);
    const { before } = rig.turn(URI, texts[0], texts[1]);
    await rig.contents.pack(1); // the base alone
    const packing = rig.contents.pack(1); // encoding against the base, in the thread pool
    rig.store.transaction(() => rig.contents.removeAll([before!]));
    await packing;
    const after = rig.store.db
      .prepare('SELECT lower(hex(hash)) AS hash FROM contents WHERE hash IS NOT NULL')
      .get() as { hash: string };
    expect(rig.row(after.hash)).toMatchObject({ codec: 'raw', packed: 0 });
    await rig.packAll();
    expect(rig.row(after.hash)).toMatchObject({ codec: 'brotli', base_id: null });
    expect(rig.contents.read(after.hash).equals(texts[1])).toBe(true);
  });
});

describe('a damaged chain', () => {
  it('a damaged base makes every content above it UNRESTORABLE, never wrong bytes; those below stay exact', async () => {
    const texts = versions(11, 5);
    const hashes = history(texts);
    await rig.packAll();
    // A part replaced by a valid delta of other bytes: it decodes, to the wrong bytes.
    const other = rig.row(hashes[1]);
    const damaged = rig.row(hashes[2]);
    const foreign = rig.store.db.prepare('SELECT data FROM content_parts WHERE id = ?').get(other.id * 65536) as {
      data: Buffer;
    };
    rig.store.db.prepare('UPDATE content_parts SET data = ? WHERE id = ?').run(foreign.data, damaged.id * 65536);
    expectExact(hashes.slice(0, 2), texts.slice(0, 2));
    for (const hash of hashes.slice(2)) {
      expect(() => rig.contents.read(hash)).toThrow(UnrestorableContentError);
      await expect(streamed(hash)).rejects.toMatchObject({ code: 'UNRESTORABLE', reason: 'mismatch' });
      expect(await rig.contents.verify(hash)).toBe(false);
    }
  });

  it('a base damaged after its chain was read (and decoded once already) is still found: never served from memory', async () => {
    const texts = versions(14, 4);
    const hashes = history(texts);
    await rig.packAll();
    expectExact(hashes, texts);
    const base = rig.row(hashes[1]);
    rig.store.db
      .prepare('UPDATE content_parts SET data = ? WHERE id = ?')
      .run(Buffer.from('not the delta that was kept'), base.id * 65536);
    expectExact([hashes[0]], [texts[0]]);
    for (const hash of hashes.slice(1)) expect(() => rig.contents.read(hash)).toThrow(UnrestorableContentError);
  });

  it('a base gone from under its dependants makes them UNRESTORABLE as missing', async () => {
    const texts = versions(12, 4);
    const hashes = history(texts);
    await rig.packAll();
    rig.store.db.prepare('DELETE FROM contents WHERE hash = unhex(?)').run(hashes[1]);
    expectExact([hashes[0]], [texts[0]]);
    for (const hash of hashes.slice(2))
      expect(() => rig.contents.read(hash)).toThrow(expect.objectContaining({ reason: 'missing' }));
  });
});

describe('property: any history, packed and swept in any order', () => {
  it('every kept content reads back byte for byte; every removed one is missing', async () => {
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('edit' as const),
        path: fc.integer({ min: 0, max: 2 }),
        seed: fc.integer({ min: 1, max: 1e6 }),
      }),
      fc.record({ kind: fc.constant('pack' as const), limit: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ kind: fc.constant('remove' as const), pick: fc.array(fc.nat(), { minLength: 1, maxLength: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 40 }), async (steps) => {
        const local = await deltaRig();
        try {
          const current = [0, 1, 2].map((p) => sourceText(100 + p, 200));
          const kept = new Map<string, Buffer>();
          const removed = new Set<string>();
          for (const s of steps) {
            if (s.kind === 'edit') {
              const next = edited(current[s.path], s.seed);
              const { before, after } = local.turn(`workspace:/f${s.path}`, current[s.path], next);
              kept.set(before!, current[s.path]);
              kept.set(after, next);
              for (const h of [before!, after]) removed.delete(h);
              current[s.path] = next;
            } else if (s.kind === 'pack') {
              await local.contents.pack(s.limit);
            } else {
              const all = [...kept.keys()];
              const going = [...new Set(s.pick.map((i) => all[i % all.length]))].filter((h) => h !== undefined);
              local.store.transaction(() => local.contents.removeAll(going));
              for (const h of going) {
                kept.delete(h);
                removed.add(h);
              }
            }
          }
          await local.packAll();
          for (const [hash, bytes] of kept) expect(local.contents.read(hash).equals(bytes)).toBe(true);
          for (const hash of removed)
            expect(() => local.contents.read(hash)).toThrow(expect.objectContaining({ reason: 'missing' }));
        } finally {
          await local.close();
        }
      }),
      { numRuns: process.env.CI ? 60 : 25 },
    );
  }, 120_000);
});
