// `workspaces.json` (docs/api.md "State dir"): the workspaces a person's service knows,
// `[{id, root, registeredAt}]`, kept across restarts.
import { readFileSync } from 'node:fs';
import { statePath, workspaceIdOf } from '../state-dir.js';
import { writePrivateFile } from './private-file.js';

export interface RegisteredWorkspace {
  id: string;
  root: string;
  registeredAt: string;
}

export class WorkspaceRegistry {
  private readonly byId = new Map<string, RegisteredWorkspace>();
  private readonly file: string;

  constructor(
    env: NodeJS.ProcessEnv = process.env,
    private readonly now: () => number = Date.now,
  ) {
    this.file = statePath('workspaces', env);
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
    writePrivateFile(this.file, `${JSON.stringify(this.list(), null, 1)}\n`);
    return entry;
  }
}

/** The file's well-formed entries; a missing or damaged file is an empty registry. */
function readEntries(file: string): RegisteredWorkspace[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (entry): entry is RegisteredWorkspace =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof entry.id === 'string' &&
      typeof entry.root === 'string' &&
      typeof entry.registeredAt === 'string' &&
      entry.id === workspaceIdOf(entry.root),
  );
}
