// The one throwaway place the tests share: a real temp dir (its real path, so paths compare
// equal to what the engine resolves) holding `workspace/`, the data dir's path and an
// `outside/` folder with a file that nothing may ever touch. Unit tests, the specs and the
// reliability suite all start from it; the real-CLI suites build theirs on it (hosts/).
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openEngine, type OpenEngineOptions } from '../engine/index.js';

export interface Sandbox {
  base: string;
  workspace: string;
  /** Not created: the engine makes it (or a test puts it inside the workspace). */
  dataDir: string;
  outside: string;
  cleanup(): Promise<void>;
}

export interface SandboxOptions {
  /** The temp dir's name starts `turnback-<prefix>-`. */
  prefix?: string;
  /** The data dir at this relative path inside the workspace, rather than beside it. */
  dataInsideWorkspace?: string;
  /** What `outside/` holds (relative path → text); by default one file, OUTSIDE_SECRET. */
  outside?: Record<string, string>;
}

export const OUTSIDE_SECRET = 'secret.txt';

/** A sandbox whose workspace holds `files` (relative path → text). */
export async function makeSandbox(files: Record<string, string> = {}, options: SandboxOptions = {}): Promise<Sandbox> {
  const base = await realpath(await mkdtemp(join(tmpdir(), `turnback-${options.prefix ?? 'test'}-`)));
  const workspace = join(base, 'workspace');
  const outside = join(base, 'outside');
  await mkdir(workspace);
  await mkdir(outside);
  await writeWorkspace(outside, options.outside ?? { [OUTSIDE_SECRET]: 'outside the workspace: never touched\n' });
  await writeWorkspace(workspace, files);
  const dataDir = options.dataInsideWorkspace ? join(workspace, options.dataInsideWorkspace) : join(base, 'data');
  return { base, workspace, dataDir, outside, cleanup: () => rm(base, { recursive: true, force: true }) };
}

export async function writeWorkspace(workspace: string, files: Record<string, string>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const abs = join(workspace, rel);
    await mkdir(dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
}

/** A link inside the workspace that leads out of it: URIs through it must be refused. */
export async function plantEscapeLink(sandbox: Sandbox, name = 'escape'): Promise<void> {
  await symlink(sandbox.outside, join(sandbox.workspace, name));
}

/** An engine on the sandbox with every scope on (the unit tests' default). */
export function openEngineOn(sandbox: Sandbox, options: Partial<OpenEngineOptions> = {}) {
  return openEngine({ workspace: sandbox.workspace, dataDir: sandbox.dataDir, scopes: ['*'], ...options });
}
