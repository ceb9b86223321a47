// `workspaces.json` (docs/api.md "State dir"): the workspaces a person's service knows,
// `[{id, root, registeredAt, index?}]`, kept across restarts (`index`: how its latest index
// build ended, so a restart builds again only the ones not whole).
import type { IndexBuildStatus } from '../protocol.js';
import { statePath, workspaceIdOf } from '../state-dir.js';
import { readPrivateFile, writePrivateFile } from './private-file.js';

export interface RegisteredWorkspace {
  id: string;
  root: string;
  registeredAt: string;
  index?: IndexBuildStatus;
}

export class WorkspaceRegistry {
  private readonly byId = new Map<string, RegisteredWorkspace>();
  private readonly file: string;

  /** `file`: another service's own `workspaces.json` (`serve --data`), else the per-user one. */
  constructor(
    env: NodeJS.ProcessEnv = process.env,
    private readonly now: () => number = Date.now,
    file: string = statePath('workspaces', env),
  ) {
    this.file = file;
    for (const entry of readEntries(this.file)) this.byId.set(entry.id, entry);
  }

  list(): RegisteredWorkspace[] {
    return [...this.byId.values()];
  }

  get(id: string): RegisteredWorkspace | undefined {
    return this.byId.get(id);
  }

  /** The entry of `root` (a real path), added and saved when new. */
  register(root: string): RegisteredWorkspace {
    const id = workspaceIdOf(root);
    const known = this.byId.get(id);
    if (known) return known;
    const entry = { id, root, registeredAt: new Date(this.now()).toISOString() };
    this.byId.set(id, entry);
    this.save();
    return entry;
  }

  /** Takes the workspace out (`turnback forget`); false when it was not registered. */
  remove(id: string): boolean {
    if (!this.byId.delete(id)) return false;
    this.save();
    return true;
  }

  /** Keeps how the workspace's latest index build ended. */
  noteIndex(id: string, index: IndexBuildStatus): void {
    const entry = this.byId.get(id);
    if (!entry) return;
    entry.index = index;
    this.save();
  }

  private save(): void {
    writePrivateFile(this.file, `${JSON.stringify(this.list(), null, 1)}\n`);
  }
}

/** The file's well-formed entries; a missing or damaged file is an empty registry. */
function readEntries(file: string): RegisteredWorkspace[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readPrivateFile(file));
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw
    .filter(
      (entry): entry is RegisteredWorkspace =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof entry.id === 'string' &&
        typeof entry.root === 'string' &&
        typeof entry.registeredAt === 'string' &&
        entry.id === workspaceIdOf(entry.root),
    )
    .map((entry) => {
      // A damaged `index` is only a build to run again.
      const index = (entry as { index?: unknown }).index;
      if (
        index === undefined ||
        (typeof index === 'object' && index !== null && typeof (index as IndexBuildStatus).state === 'string')
      )
        return entry;
      const { index: _dropped, ...rest } = entry;
      return rest;
    });
}
