// Which URIs the workspace index holds below a folder, kept beside it as it changes: a scan of
// the dirty paths asks it what a removed or renamed folder held, without walking the index.
/**
 * The parent of an indexed URI (canonical: `root:/a/b`), without parsing it again: the tree is
 * built once from every URI of the index, and parsing each cost more than the rest of it.
 */
export function parentOfIndexed(uri: string): string | null {
  const cut = uri.lastIndexOf('/');
  if (cut === uri.length - 1) return null; // the root itself
  return uri[cut - 1] === ':' && uri.indexOf(':/') === cut - 1 ? uri.slice(0, cut + 1) : uri.slice(0, cut);
}

export class IndexTree {
  private readonly children = new Map<string, Set<string>>();

  constructor(uris: Iterable<string>) {
    for (const uri of uris) this.add(uri);
  }

  add(uri: string): void {
    const parent = parentOfIndexed(uri);
    if (parent === null) return;
    let set = this.children.get(parent);
    if (!set) this.children.set(parent, (set = new Set()));
    set.add(uri);
  }

  remove(uri: string): void {
    const parent = parentOfIndexed(uri);
    if (parent === null) return;
    const set = this.children.get(parent);
    set?.delete(uri);
    if (set?.size === 0) this.children.delete(parent);
  }

  /** The URIs directly below `uri` (a root's own URI: the names at its top). */
  childrenOf(uri: string): ReadonlySet<string> | undefined {
    return this.children.get(uri);
  }

  /** Every URI strictly below `uri` in the order a walk meets them: parents first, names sorted. */
  *below(uri: string): Generator<string> {
    const set = this.children.get(uri);
    if (!set) return;
    for (const child of [...set].sort()) {
      yield child;
      yield* this.below(child);
    }
  }
}
