// Roots and URI resolution. A URI resolves to an absolute path only when the deepest existing
// ancestor's real path lies inside the root's real path, and never into the engine's store
// (nor, from a root that is not itself in the data dir, into any of the data dir).
import path from 'node:path';
import type { RootKind } from '../../protocol.js';
import type { RootSpec } from '../api.js';
import { BadUriError } from '../errors.js';
import { type EngineFs, isNotFound } from './fs.js';
import { formatUri, parseUri } from './uri.js';

export interface Root {
  name: string;
  kind: RootKind;
  /** Real path of the root directory. */
  real: string;
  tracked: boolean;
  /** The root itself lies inside the data dir (the `data` and `tmp` roots). */
  insideDataDir: boolean;
}

export interface Resolved {
  uri: string;
  /** The URI of where the path really is (symlinked directories inside the root resolved). */
  realUri: string;
  realSegments: string[];
  root: Root;
  segments: string[];
  /** Absolute path built on the real path of the deepest existing ancestor. */
  abs: string;
  tracked: boolean;
}

export interface ResolveOptions {
  /** `<root>:/` is acceptable (reads, listings). */
  allowRoot?: boolean;
  /** The operation removes or moves the path: refuse it when it holds the data dir. */
  removes?: boolean;
  /** The operation writes or reads content: a link at the path itself must resolve inside too. */
  content?: boolean;
}

const TRACKED_KINDS: ReadonlySet<RootKind> = new Set(['workspace', 'custom']);

export function isTrackedKind(kind: RootKind): boolean {
  return TRACKED_KINDS.has(kind);
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export class Roots {
  private readonly byName = new Map<string, Root>();

  private constructor(
    private readonly fs: EngineFs,
    readonly dataReal: string,
    readonly storeReal: string,
  ) {}

  static async create(fs: EngineFs, specs: RootSpec[], dataDir: string, storeDir: string): Promise<Roots> {
    const realOrResolved = async (p: string) => {
      try {
        return await fs.realpath(p);
      } catch {
        return path.resolve(p);
      }
    };
    const roots = new Roots(fs, await realOrResolved(dataDir), await realOrResolved(storeDir));
    for (const spec of specs) {
      const real = await realOrResolved(spec.path);
      roots.byName.set(spec.name, {
        name: spec.name,
        kind: spec.kind,
        real,
        tracked: isTrackedKind(spec.kind),
        insideDataDir: isInside(real, roots.dataReal),
      });
    }
    // From here on the seam reaches every path inside a root beneath it (beneath.ts).
    for (const root of roots.list()) fs.addRoot(root.real, roots.engineDataIn(root));
    return roots;
  }

  get(name: string): Root | undefined {
    return this.byName.get(name);
  }

  list(): Root[] {
    return [...this.byName.values()];
  }

  /** Whether entries of this URI's root count and roll back under the current configuration. */
  isTrackedUri(uri: string): boolean {
    const colon = uri.indexOf(':/');
    return colon > 0 && (this.byName.get(uri.slice(0, colon))?.tracked ?? false);
  }

  /** Maps a URI to its path without touching the disk (for paths already validated once). */
  absOf(uri: string): { root: Root; abs: string } | null {
    let parsed;
    try {
      parsed = parseUri(uri);
    } catch {
      return null;
    }
    const root = this.byName.get(parsed.root);
    if (!root) return null;
    return { root, abs: path.join(root.real, ...parsed.segments) };
  }

  async resolve(uri: string, options: ResolveOptions = {}): Promise<Resolved> {
    const { root: rootName, segments } = parseUri(uri);
    const root = this.byName.get(rootName);
    if (!root) throw new BadUriError(`unknown root ${JSON.stringify(rootName)}`, { uri });
    if (segments.length === 0 && !options.allowRoot)
      throw new BadUriError('the root itself cannot be changed', { uri });
    const parentReal = await this.realParent(root, segments.slice(0, -1), uri);
    const abs = segments.length === 0 ? root.real : path.join(parentReal, segments[segments.length - 1]);
    if (!isInside(abs, root.real)) throw new BadUriError('the path leaves its root', { uri });
    this.refuseEngineData(root, abs, uri, options.removes ?? false);
    if (options.content) await this.refuseLinkOutside(root, abs, uri);
    const rel = path.relative(root.real, abs);
    const realSegments = rel === '' ? [] : rel.split(path.sep);
    return {
      uri,
      realUri: formatUri(root.name, realSegments),
      realSegments,
      root,
      segments,
      abs,
      tracked: root.tracked,
    };
  }

  /**
   * A recorded URI as a path, without following anything: the caller checks that no ancestor
   * is a symlink before touching it. Still refuses unknown roots and the engine's own data.
   */
  locate(uri: string): Resolved {
    const { root: rootName, segments } = parseUri(uri);
    const root = this.byName.get(rootName);
    if (!root) throw new BadUriError(`unknown root ${JSON.stringify(rootName)}`, { uri });
    const abs = path.join(root.real, ...segments);
    this.refuseEngineData(root, abs, uri, false);
    return { uri, realUri: uri, realSegments: segments, root, segments, abs, tracked: root.tracked };
  }

  private async refuseLinkOutside(root: Root, abs: string, uri: string): Promise<void> {
    const stats = await this.fs.lstatOrNull(abs);
    if (!stats?.isSymbolicLink()) return;
    let real: string;
    try {
      real = await this.fs.realpath(abs);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    if (!isInside(real, root.real)) throw new BadUriError('the path is a symlink that leads outside its root', { uri });
    this.refuseEngineData(root, real, uri, false);
  }

  /** Real path of the parent, built on its deepest existing ancestor. */
  private async realParent(root: Root, parentSegments: string[], uri: string): Promise<string> {
    for (let depth = parentSegments.length; depth >= 0; depth--) {
      const candidate = path.join(root.real, ...parentSegments.slice(0, depth));
      let real: string;
      try {
        real = await this.fs.realpath(candidate);
      } catch (e) {
        if (isNotFound(e) && depth > 0) continue;
        if (isNotFound(e)) return path.join(root.real, ...parentSegments);
        throw e;
      }
      if (!isInside(real, root.real))
        throw new BadUriError('the path resolves through a symlink to outside its root', { uri });
      return path.join(real, ...parentSegments.slice(depth));
    }
    return root.real;
  }

  private refuseEngineData(root: Root, abs: string, uri: string, removes: boolean): void {
    if (isInside(abs, this.storeReal)) throw new BadUriError("the engine's store is not reachable", { uri });
    if (!root.insideDataDir && isInside(abs, this.dataReal)) {
      throw new BadUriError("the engine's data dir is not reachable from this root", { uri });
    }
    if (removes && (isInside(this.storeReal, abs) || (!root.insideDataDir && isInside(this.dataReal, abs)))) {
      throw new BadUriError("the path holds the engine's data dir", { uri });
    }
  }

  /** The URI naming an absolute path, when it lies in a root (for messages and error details). */
  uriOf(abs: string): string | undefined {
    for (const root of this.byName.values()) {
      if (!isInside(abs, root.real) || isInside(abs, this.storeReal)) continue;
      const rel = path.relative(root.real, abs);
      return formatUri(root.name, rel === '' ? [] : rel.split(path.sep));
    }
    return undefined;
  }

  /** Absolute paths a walk of this root must skip (the engine's own data), for prefix checks. */
  engineDataIn(root: Root): string[] {
    const inside = (p: string) => isInside(p, root.real);
    return [this.storeReal, ...(root.insideDataDir ? [] : [this.dataReal])].filter(inside);
  }
}
