// Test helpers: temp workspaces and byte-for-byte, mode-for-mode tree snapshots.
import { treeAsText } from '../testkit/tree.js';
import { openEngine, type OpenEngineOptions } from './index.js';
import { makeTempTree } from '../testkit/sandbox.js';

export interface Sandbox {
  root: string;
  workspace: string;
  dataDir: string;
  cleanup(): Promise<void>;
}

export async function sandbox(): Promise<Sandbox> {
  const { base, workspace, dataDir, cleanup } = await makeTempTree('engine');
  return { root: base, workspace, dataDir, cleanup };
}

export async function open(box: Sandbox, options: Partial<OpenEngineOptions> = {}) {
  return openEngine({ workspace: box.workspace, dataDir: box.dataDir, scopes: ['*'], ...options });
}

/** path → "file <mode> <base64>" | "dir <mode>" | "link <target>" for everything under dir. */
export function snapshot(dir: string): Promise<Record<string, string>> {
  return treeAsText(dir);
}
