import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packChange, packChangeOf, packState, packStateOf, unpackChange, unpackState } from './record-codec.js';

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex'));
const count = fc.oneof(fc.nat(0o7777), fc.maxSafeNat());
const state = fc.oneof(
  fc.constant(null),
  fc.record({ type: fc.constant('file'), hash: fc.oneof(hash, fc.constant('')), size: count, mode: fc.nat(0o7777) }),
  fc.record({ type: fc.constant('dir'), mode: fc.nat(0o7777) }),
  fc.record({ type: fc.constant('symlink'), target: fc.string({ unit: 'grapheme' }) }),
  fc.record({
    type: fc.constant('special'),
    kind: fc.constantFrom('fifo', 'socket', 'char', 'block'),
    mode: fc.nat(0o7777),
  }),
);
const uri = fc.string({ unit: 'grapheme', minLength: 1 }).map((p) => `workspace:/${p}`);
const change = fc.record(
  {
    uri,
    change: fc.constantFrom('created', 'modified', 'deleted', 'renamed', 'moved', 'dir-created', 'dir-deleted'),
    before: state,
    after: state,
    from: uri,
    skipped: fc.constantFrom('too-large', 'excluded', 'unreadable'),
    lines: fc.record({ added: fc.nat(), removed: fc.nat() }),
  },
  { requiredKeys: ['uri', 'change', 'before', 'after'] },
);
// The key order the engine writes (summary.ts's buildChange, then the line counts).
const ordered = (c: Record<string, unknown>) =>
  JSON.stringify(
    Object.fromEntries(
      ['uri', 'change', 'before', 'after', 'from', 'skipped', 'lines'].filter((k) => k in c).map((k) => [k, c[k]]),
    ),
  );

describe('record codec: states and changes as a few bytes, read back exactly', () => {
  it('every state reads back as the same JSON text', () => {
    fc.assert(
      fc.property(state, (s) => {
        const json = s === null ? null : JSON.stringify(s);
        const packed = packState(json);
        expect(unpackState(packed)).toBe(json);
        // In the compact form (a JSON fallback would hide a codec that reads back wrong).
        if (packed) expect(packed[0]).not.toBe(0);
      }),
    );
  });

  it('every change reads back as the same JSON text, its uri from the row', () => {
    fc.assert(
      fc.property(change, (c) => {
        const json = ordered(c);
        const packed = packChange(json, c.uri);
        expect(unpackChange(packed, c.uri)).toBe(json);
        expect(packed[0]).toBe(6);
      }),
    );
  });

  it('a file state takes its hash as 32 bytes, not 64 hex characters', () => {
    const json = JSON.stringify({ type: 'file', hash: 'ab'.repeat(32), size: 32346, mode: 0o664 });
    const packed = packState(json)!;
    expect(packed.length).toBeLessThanOrEqual(40);
    expect(packed.includes(Buffer.from('ab'.repeat(32)))).toBe(false);
    const changeJson = JSON.stringify({
      uri: 'workspace:/index.js',
      change: 'modified',
      before: JSON.parse(json),
      after: { type: 'file', hash: 'cd'.repeat(32), size: 32347, mode: 0o664 },
      lines: { added: 1, removed: 0 },
    });
    // Against the 330 characters of its JSON.
    expect(packChange(changeJson, 'workspace:/index.js').length).toBeLessThanOrEqual(90);
  });

  it('what the compact form cannot hold exactly is kept as its JSON, and reads back the same', () => {
    const odd = [
      JSON.stringify({ type: 'file', hash: 'not-a-sha256', size: 1, mode: 420 }),
      JSON.stringify({ type: 'file', hash: 'ab'.repeat(32), size: 1, mode: 420, extra: true }),
      JSON.stringify({ mode: 420, type: 'dir' }),
      JSON.stringify({ type: 'file', hash: 'AB'.repeat(32), size: 1, mode: 420 }),
      'null',
    ];
    for (const json of odd) expect(unpackState(packState(json))).toBe(json);
    const uriElsewhere = JSON.stringify({ uri: 'workspace:/a', change: 'created', before: null, after: null });
    expect(unpackChange(packChange(uriElsewhere, 'workspace:/b'), 'workspace:/b')).toBe(uriElsewhere);
    const unknownKind = JSON.stringify({ uri: 'workspace:/a', change: 'teleported', before: null, after: null });
    expect(unpackChange(packChange(unknownKind, 'workspace:/a'), 'workspace:/a')).toBe(unknownKind);
  });

  it('a row cut short is an error, never another state', () => {
    const packed = packState(JSON.stringify({ type: 'file', hash: 'ab'.repeat(32), size: 5, mode: 420 }))!;
    expect(() => unpackState(packed.subarray(0, packed.length - 1))).toThrow();
  });
});

describe('record codec: packed from the objects themselves, the same bytes as from their JSON', () => {
  // Objects as the engine builds them, and as it might not: keys in another order, a field of
  // their own, a key holding undefined, text UTF-8 cannot keep.
  const shuffled = <T extends object>(o: T, order: number[]) => {
    const entries = Object.entries(o);
    return Object.fromEntries(
      entries
        .map((_, i) => entries[order[i % order.length] % entries.length])
        .filter((e, i, all) => all.findIndex((x) => x[0] === e[0]) === i),
    ) as T;
  };
  const odd = fc.oneof(
    state,
    fc.tuple(state, fc.array(fc.nat(6), { minLength: 1 })).map(([s, order]) => (s ? shuffled(s, order) : s)),
    state.map((s) => (s ? { ...s, note: 'a field of its own' } : s)),
    state.map((s) => (s ? { ...s, extra: undefined } : s)),
    fc.constant({ type: 'symlink', target: 'lone \ud800 surrogate' }),
    fc.constant({ type: 'file', hash: 'A'.repeat(64), size: 1, mode: 420 }),
    fc.constant({ type: 'file', hash: '', size: -0, mode: 420 }),
  );

  it('every state, odd or not', () => {
    fc.assert(
      fc.property(odd, (s) => {
        expect(packStateOf(s)).toEqual(packState(s ? JSON.stringify(s) : null));
      }),
      { numRuns: 500 },
    );
  });

  it('every change, odd or not', () => {
    const oddChange = fc.oneof(
      change,
      fc.tuple(change, odd).map(([c, s]) => ({ ...c, after: s })),
      change.map((c) => ({ ...c, from: undefined })),
      change.map((c) => ({ lines: { added: 1, removed: 2 }, ...c })),
      change.map((c) => ({ ...c, lines: { removed: 2, added: 1 } })),
      change.map((c) => ({ ...c, from: 'lone \udc00' })),
    );
    fc.assert(
      fc.property(oddChange, (c) => {
        expect(packChangeOf(c, c.uri)).toEqual(packChange(JSON.stringify(c), c.uri));
      }),
      { numRuns: 500 },
    );
  });
});
