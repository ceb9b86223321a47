// A content store with turns recorded the way the engine records them (a turn, an entry with
// before- and after-states, the references), so the packer finds each content's base as it
// would in a real store; and text that changes a little from version to version.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ContentStore } from './contents.js';
import { Store } from '../db/store.js';

export interface ContentColumns {
  hash: string;
  codec: string;
  depth: number;
  base_id: number | null;
  id: number;
  stored: number;
  size: number;
  packed: number;
}

export interface Change {
  uri: string;
  before: Buffer | null;
  after: Buffer;
  to?: string;
}

export interface DeltaRig {
  dir: string;
  store: Store;
  contents: ContentStore;
  /** Records a turn that changed `uri` from `before` to `after` (to `to` for a rename); answers the hashes. */
  turn(uri: string, before: Buffer | null, after: Buffer, to?: string): { before: string | null; after: string };
  /** Records a turn of several such changes, an entry each, in order; answers their hashes. */
  turnOf(changes: Change[]): { before: string | null; after: string }[];
  /** Packs until nothing is left to pack. */
  packAll(): Promise<void>;
  row(hash: string): ContentColumns;
  close(): Promise<void>;
}

export async function deltaRig(): Promise<DeltaRig> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'turnback-deltas-'));
  const store = new Store(path.join(dir, 'turnback.db'));
  const contents = new ContentStore(store);
  let number = 0;
  const state = (hash: string | null, size: number) =>
    hash ? { type: 'file' as const, hash, size, mode: 0o644 } : null;
  const turnOf = (changes: Change[]): { before: string | null; after: string }[] => {
    const batch = contents.batch();
    const kept = changes.map(({ before, after }) => ({
      b: before ? batch.keepBytes(before) : null,
      a: batch.keepBytes(after),
    }));
    const turnId = `t${++number}`;
    store.transaction(() => {
      batch.commit();
      store.turns.insert({
        turnId,
        sessionId: 's',
        number,
        kind: 'agent',
        rollbackOf: null,
        title: '',
        startedAt: number,
      });
      store.turns.markCommitted(turnId, number, {}, false);
      changes.forEach(({ uri, before, after, to }, i) => {
        const { b, a } = kept[i];
        store.entries.insert({
          turnId,
          seq: i + 1,
          op: to ? 'rename' : 'write',
          uri,
          toUri: to ?? null,
          before: state(b?.hash ?? null, before?.length ?? 0),
          after: to ? null : state(a.hash, after.length),
          toBefore: null,
          toAfter: to ? state(a.hash, after.length) : null,
          skipped: null,
          toSkipped: null,
          execId: null,
          stepId: null,
          stepTitle: null,
        });
        for (const h of [b?.hash, a.hash]) if (h) store.entries.addRef(h, turnId);
      });
    });
    return kept.map(({ b, a }) => ({ before: b?.hash ?? null, after: a.hash }));
  };
  return {
    dir,
    store,
    contents,
    turnOf,
    turn(uri, before, after, to) {
      return turnOf([{ uri, before, after, to }])[0];
    },
    async packAll() {
      while ((await contents.pack(7)) > 0) {
        /* next round */
      }
    },
    row(hash) {
      return store.db
        .prepare(
          'SELECT id, lower(hex(hash)) AS hash, codec, depth, base_id, stored, size, packed FROM contents WHERE hash = unhex(?)',
        )
        .get(hash) as ContentColumns;
    },
    async close() {
      store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A small seeded generator (deterministic texts on every run). */
function createRng(seed: number): { int(n: number): number } {
  let state = seed >>> 0 || 1;
  return {
    int(n) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return (state >>> 8) % n;
    },
  };
}

/** Source-like text of about `lines` lines. */
export function sourceText(seed: number, lines: number): Buffer {
  const rng = createRng(seed);
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(`  const value${rng.int(100_000)} = compute(${rng.int(1000)}, '${rng.int(1e9).toString(36)}');`);
  return Buffer.from(out.join('\n') + '\n');
}

/** The next version: a few lines replaced, one added, as an agent's edit would. */
export function edited(text: Buffer, seed: number): Buffer {
  const rng = createRng(seed);
  const lines = text.toString('utf8').split('\n');
  for (let k = 0; k < 3; k++) lines[rng.int(lines.length)] = `  edit(${seed}, ${k}, ${rng.int(1e6)});`;
  lines.splice(rng.int(lines.length), 0, `// version ${seed}`);
  return Buffer.from(lines.join('\n'));
}

/** `count` versions of one text, each an edit of the one before. */
export function versions(seed: number, count: number, lines = 800): Buffer[] {
  const out = [sourceText(seed, lines)];
  while (out.length < count) out.push(edited(out[out.length - 1], seed * 1000 + out.length));
  return out;
}
