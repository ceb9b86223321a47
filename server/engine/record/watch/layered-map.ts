// A map read through a layer of differences over another: what a scan of the dirty paths found
// over the index it started from, or an open command's baseline over the index that later scans
// moved on (copy-on-write: only the entries changed since are kept). Costs what the layer
// holds, not what the map below holds.
import type { IndexEntry } from '../../db/workspace-index.js';

export class LayeredMap implements ReadonlyMap<string, IndexEntry> {
  constructor(
    private readonly below: () => ReadonlyMap<string, IndexEntry>,
    /** URI → its entry here; undefined: absent here, whatever lies below. */
    readonly layer: Map<string, IndexEntry | undefined> = new Map(),
  ) {}

  get(uri: string): IndexEntry | undefined {
    // A full scan asks once per path: the empty layer (nothing changed since) costs no lookup.
    if (this.layer.size !== 0 && this.layer.has(uri)) return this.layer.get(uri);
    return this.below().get(uri);
  }

  has(uri: string): boolean {
    return this.get(uri) !== undefined;
  }

  get size(): number {
    let size = 0;
    for (const _ of this) size++;
    return size;
  }

  *entries(): MapIterator<[string, IndexEntry]> {
    const below = this.below();
    for (const [uri, entry] of below) {
      if (!this.layer.has(uri)) yield [uri, entry];
      else {
        const mine = this.layer.get(uri);
        if (mine) yield [uri, mine];
      }
    }
    for (const [uri, mine] of this.layer) if (mine && !below.has(uri)) yield [uri, mine];
  }

  [Symbol.iterator](): MapIterator<[string, IndexEntry]> {
    return this.entries();
  }

  *keys(): MapIterator<string> {
    for (const [uri] of this.entries()) yield uri;
  }

  *values(): MapIterator<IndexEntry> {
    for (const [, entry] of this.entries()) yield entry;
  }

  forEach(fn: (value: IndexEntry, key: string, map: ReadonlyMap<string, IndexEntry>) => void): void {
    for (const [uri, entry] of this.entries()) fn(entry, uri, this);
  }
}
