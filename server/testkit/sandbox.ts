// The one throwaway place the tests share: a real temp dir (its real path, so paths compare
// equal to what the engine resolves) holding `workspace/`, the data dir's path and an
// `outside/` folder that nothing may ever touch.
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempTree {
  base: string;
  workspace: string;
  /** Not created: the engine makes it (or a test puts it inside the workspace). */
  dataDir: string;
  outside: string;
  cleanup(): Promise<void>;
}

export async function makeTempTree(prefix: string, options: { dataInsideWorkspace?: string } = {}): Promise<TempTree> {
  const base = await realpath(await mkdtemp(join(tmpdir(), `turnback-${prefix}-`)));
  const workspace = join(base, 'workspace');
  const outside = join(base, 'outside');
  await mkdir(workspace);
  await mkdir(outside);
  const dataDir = options.dataInsideWorkspace ? join(workspace, options.dataInsideWorkspace) : join(base, 'data');
  return { base, workspace, dataDir, outside, cleanup: () => rm(base, { recursive: true, force: true }) };
}
