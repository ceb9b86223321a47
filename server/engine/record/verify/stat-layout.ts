// The index laid out for the stat threads: every entry's absolute path, grouped by the folder
// that holds it, and cut into one share per thread. It depends only on which paths the index
// holds and which of them are folders, so it is kept from one verification to the next while
// those hold (a command that edits files changes neither): laying out 100,000 paths costs the
// main thread about 100 ms; checking that the layout still fits, and filling in the stats, a
// fifth of that.
import path from 'node:path';
import type { Root } from '../../paths/roots.js';
import type { IndexEntry } from '../workspace-index.js';

/** The index as a layout reads it: its entries, and which lie directly below a folder. */
export interface LaidOutIndex {
  map(): ReadonlyMap<string, IndexEntry>;
  childrenOf(uri: string): ReadonlySet<string> | undefined;
}

/** One thread's share: its entries [offset, end), and its folders (owner path, first and end entry, all of the share). */
export interface Share {
  offset: number;
  end: number;
  /** Its first folder, of all the layout's. */
  firstGroup: number;
  paths: string;
  groups: Int32Array;
  owners: string;
}

export class StatLayout {
  private constructor(
    /** The roots it was laid out for (their real paths, in order). */
    private readonly rootKey: string,
    readonly uris: string[],
    readonly abs: string[],
    /** Each entry's root, as an index into the tracked roots. */
    readonly rootOf: Uint16Array,
    readonly isDir: Uint8Array,
    readonly shares: Share[],
    /**
     * Per folder, 3 values: its ino, mtime and ctime when a listing last found it holding
     * nothing the index lacks (NaN: none such). Valid while the layout fits: the index then
     * holds the same names there.
     */
    readonly seen: Float64Array,
  ) {}

  /** Whether it still lays out `map` (the same paths, the same folders) for these roots. */
  fits(map: ReadonlyMap<string, IndexEntry>, tracked: readonly Root[]): boolean {
    if (map.size !== this.uris.length || keyOf(tracked) !== this.rootKey) return false;
    // Distinct URIs, as many as the map holds, each in it: the same set.
    for (let i = 0; i < this.uris.length; i++) {
      const entry = map.get(this.uris[i]!);
      if (!entry || (entry.type === 'dir' ? 1 : 0) !== this.isDir[i]) return false;
    }
    return true;
  }

  /** Lays out what a walk from the tracked roots reaches of the index; null when that is not all it holds. */
  static of(index: LaidOutIndex, tracked: readonly Root[], threads: number): StatLayout | null {
    const map = index.map();
    const uris: string[] = [];
    const abs: string[] = [];
    const rootOf = new Uint16Array(map.size);
    const isDir = new Uint8Array(map.size);
    /** Per folder: its reference (an entry, or -1 - root), its first and end entry. */
    const groups: number[] = [];
    const owners: string[] = [];
    for (let r = 0; r < tracked.length; r++) {
      const root = tracked[r]!;
      const pending = [{ uri: `${root.name}:/`, ref: -1 - r, abs: root.real }];
      while (pending.length > 0) {
        const folder = pending.pop()!;
        const first = uris.length;
        const cut = folder.uri.endsWith(':/') ? folder.uri.length : folder.uri.length + 1;
        for (const uri of index.childrenOf(folder.uri) ?? []) {
          const i = uris.length;
          if (i >= map.size) return null;
          const at = `${folder.abs}${path.sep}${uri.slice(cut)}`;
          uris.push(uri);
          abs.push(at);
          rootOf[i] = r;
          if (map.get(uri)?.type === 'dir') {
            isDir[i] = 1;
            pending.push({ uri, ref: i, abs: at });
          }
        }
        groups.push(folder.ref, first, uris.length);
        owners.push(folder.abs);
      }
    }
    // Paths no walk from a tracked root reaches (an untracked root's, below a newly excluded folder).
    if (uris.length !== map.size) return null;
    const seen = new Float64Array(3 * owners.length).fill(NaN);
    return new StatLayout(keyOf(tracked), uris, abs, rootOf, isDir, sharesOf(abs, groups, owners, threads), seen);
  }
}

const keyOf = (tracked: readonly Root[]) => tracked.map((root) => `${root.name}\0${root.real}`).join('\0');

/** The folders cut into one share per thread, of about as many entries each. */
function sharesOf(abs: string[], groups: number[], owners: string[], threads: number): Share[] {
  const shares: Share[] = [];
  const share = Math.ceil(abs.length / threads);
  let g = 0;
  while (g < owners.length) {
    const firstGroup = g;
    const offset = groups[3 * g + 1]!;
    // The last share takes what is left, so that rounding makes no extra one.
    const last = shares.length === threads - 1;
    while (g < owners.length && (g === firstGroup || last || groups[3 * g + 2]! - offset <= share)) g++;
    const end = groups[3 * (g - 1) + 2]!;
    const local = new Int32Array(3 * (g - firstGroup));
    for (let j = firstGroup; j < g; j++) {
      local[3 * (j - firstGroup)] = groups[3 * j]!;
      local[3 * (j - firstGroup) + 1] = groups[3 * j + 1]! - offset;
      local[3 * (j - firstGroup) + 2] = groups[3 * j + 2]! - offset;
    }
    shares.push({
      offset,
      end,
      firstGroup,
      paths: abs.slice(offset, end).join('\0'),
      groups: local,
      owners: owners.slice(firstGroup, g).join('\0'),
    });
  }
  return shares;
}
