// The workspace index: for every tracked path, what a scan last saw there — the stat fields
// that tell a change cheaply (size, mtime, ctime, inode, mode) and the state itself (a file's
// content hash, a link's target). Every file it names with a hash has that content stored, so
// whatever a command then does to it can be undone. Kept in memory, persisted in SQLite
// (`ws_index`) by the transactions of the scans that change it.
import type { Stats } from 'node:fs';
import type { SpecialKind, State } from '../../protocol.js';
import { specialKindOf } from '../paths/file-read.js';
import { modeOf, sameIndexEntry } from '../state/state.js';
import type { Store } from '../db/store.js';
import { IndexTree } from './watch/index-tree.js';
import { LayeredMap } from './watch/layered-map.js';
import type { IndexedType, IndexEntry } from '../db/workspace-index.js';

export type { IndexedType, IndexEntry };

/**
 * File timestamps move in coarse ticks (a few ms on Linux, up to seconds on some filesystems):
 * a file changed again within the tick its entry was read in keeps its size, mtime and ctime.
 * Such an entry is "racy" (git's term) and is read again rather than trusted by its stat.
 */
const RACY_MS = 2_000;

export function isRacy(entry: IndexEntry): boolean {
  return entry.type !== 'dir' && Math.max(entry.mtimeMs, entry.ctimeMs) >= entry.seenMs - RACY_MS;
}

export function typeOf(stats: Stats): IndexedType {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isDirectory()) return 'dir';
  return specialKindOf(stats) ? 'special' : 'file';
}

/** What an index entry of a special file keeps in `target`: its kind. */
export function specialTarget(stats: Stats): SpecialKind | null {
  return specialKindOf(stats);
}

/**
 * Whether the stat still tells the same entry: a directory by its mode and inode (its times move
 * with its children; a folder made again elsewhere's inode is looked into whole).
 */
export function sameStat(entry: IndexEntry, stats: Stats): boolean {
  const type = typeOf(stats);
  if (type !== entry.type || modeOf(stats.mode) !== entry.mode) return false;
  if (type === 'dir') return entry.ino === stats.ino;
  return (
    entry.size === stats.size &&
    entry.mtimeMs === stats.mtimeMs &&
    entry.ctimeMs === stats.ctimeMs &&
    entry.ino === stats.ino
  );
}

export function stateOf(entry: IndexEntry | undefined): State {
  if (!entry) return null;
  if (entry.type === 'dir') return { type: 'dir', mode: entry.mode };
  if (entry.type === 'symlink') return { type: 'symlink', target: entry.target ?? '' };
  if (entry.type === 'special')
    return { type: 'special', kind: (entry.target ?? 'char') as SpecialKind, mode: entry.mode };
  return { type: 'file', hash: entry.hash ?? '', size: entry.size, mode: entry.mode };
}

export class WorkspaceIndex {
  private entries: Map<string, IndexEntry> | null = null;
  /** What lies below each folder, built on first use (scans of dirty paths ask it). */
  private tree: IndexTree | null = null;
  /** URIs whose entry says unreadable, built with the tree. */
  private unreadableUris: Set<string> | null = null;
  /** Open copy-on-write views: each keeps the entries changed since it was taken. */
  private readonly views = new Set<LayeredMap>();
  /** Entries changed so far (a reload counts as one): whether the index moved since, without a view's copies. */
  private changes = 0;

  constructor(private readonly store: Store) {}

  /**
   * Whether the index holds the whole tree as of its last scan. A scan that stores part of what
   * it read and is then cut short leaves it partial: comparing the disk with a partial index
   * would take every path it lacks for new, so nothing is attributed against it until a scan
   * completes.
   */
  get complete(): boolean {
    return this.store.index.complete;
  }

  private setComplete(complete: boolean): void {
    this.store.index.setComplete(complete);
  }

  /** The entries by URI (loaded once; scans keep it current). Callers must not change it. */
  map(): ReadonlyMap<string, IndexEntry> {
    this.entries ??= this.store.index.all();
    return this.entries;
  }

  /** A copy that later scans do not change (an open command's baseline). */
  snapshot(): Map<string, IndexEntry> {
    return new Map(this.map());
  }

  /**
   * The index as it is now, unchanged by later scans until `release` (an open command's
   * baseline): copy-on-write, it keeps only the entries changed since. `stale` tells whether any was.
   */
  view(): { map: LayeredMap; stale(): boolean; release(): void } {
    const map = new LayeredMap(() => this.map());
    this.views.add(map);
    return { map, stale: () => map.layer.size > 0, release: () => this.views.delete(map) };
  }

  /** A mark that differs once any entry changed (or the index was reloaded) since it was read. */
  get moves(): number {
    return this.changes;
  }

  /** Every URI the index holds strictly below `uri`. */
  below(uri: string): Iterable<string> {
    return this.shape().tree.below(uri);
  }

  /** The URIs the index holds directly below `uri`. */
  childrenOf(uri: string): ReadonlySet<string> | undefined {
    return this.shape().tree.childrenOf(uri);
  }

  /** The URIs whose entry says they could not be read. */
  unreadable(): ReadonlySet<string> {
    return this.shape().unreadable;
  }

  private shape(): { tree: IndexTree; unreadable: Set<string> } {
    if (!this.tree || !this.unreadableUris) {
      const map = this.map();
      this.tree = new IndexTree(map.keys());
      this.unreadableUris = new Set([...map].filter(([, e]) => e.skipped === 'unreadable').map(([uri]) => uri));
    }
    return { tree: this.tree, unreadable: this.unreadableUris };
  }

  /** Before an entry changes: the views keep what it was, the tree and the unreadable set follow. */
  private changing(uri: string, known: IndexEntry | undefined, next: IndexEntry | null): void {
    this.changes++;
    for (const view of this.views) if (!view.layer.has(uri)) view.layer.set(uri, known);
    if (!known && next) this.tree?.add(uri);
    if (known && !next) this.tree?.remove(uri);
    if (next?.skipped === 'unreadable') this.unreadableUris?.add(uri);
    else this.unreadableUris?.delete(uri);
  }

  /**
   * Inside a transaction: brings these paths to what a scan found (null: gone). Paths not
   * named keep their entries. The contents named must be stored by the same transaction.
   */
  update(found: Iterable<[string, IndexEntry | null]>): void {
    if (!this.store.db.inTransaction)
      throw new Error('the index changes inside the transaction that stores its contents');
    const entries = this.map() as Map<string, IndexEntry>;
    const rows = this.store.index;
    for (const [uri, entry] of found) {
      const known = entries.get(uri);
      if (entry === null) {
        if (known) {
          rows.remove(uri);
          this.changing(uri, known, null);
          entries.delete(uri);
        }
        continue;
      }
      if (known === entry || (known && sameIndexEntry(known, entry))) continue;
      rows.put(uri, entry);
      this.changing(uri, known, entry);
      entries.set(uri, entry);
    }
  }

  /** Inside a transaction: the index becomes exactly `current` (what a whole-tree scan found), and whole. */
  replace(current: ReadonlyMap<string, IndexEntry>): void {
    const gone: [string, null][] = [];
    for (const uri of this.map().keys()) if (!current.has(uri)) gone.push([uri, null]);
    this.update(current);
    if (gone.length > 0) this.update(gone);
    this.setComplete(true);
  }

  /** Inside a transaction: what a scan of dirty paths found (null: gone) over a whole index; whole again. */
  apply(delta: Iterable<[string, IndexEntry | null]>): void {
    this.update(delta);
    this.setComplete(true);
  }

  /** Inside a transaction: part of a scan, stored before the scan is done. */
  updatePart(found: Iterable<[string, IndexEntry]>): void {
    this.setComplete(false);
    this.update(found);
  }

  /** Forgets what was loaded (a transaction that failed may have changed it half-way). */
  reload(): void {
    this.changes++;
    this.entries = null;
    this.tree = null;
    this.unreadableUris = null;
  }
}
