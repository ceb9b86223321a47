// Test helpers: temp workspaces and byte-for-byte, mode-for-mode tree snapshots.
import { mkdtemp, readdir, lstat, readFile, readlink, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openEngine, type OpenEngineOptions } from './index.js';

export interface Sandbox { root: string; workspace: string; dataDir: string; cleanup(): Promise<void> }

export async function sandbox(): Promise<Sandbox> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'turnback-engine-'));
  const workspace = path.join(root, 'ws');
  const dataDir = path.join(root, 'data');
  await (await import('node:fs/promises')).mkdir(workspace);
  return { root, workspace, dataDir, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export async function open(box: Sandbox, options: Partial<OpenEngineOptions> = {}) {
  return openEngine({ workspace: box.workspace, dataDir: box.dataDir, scopes: ['*'], ...options });
}

/** path → "file:<mode>:<base64>" | "dir:<mode>" | "link:<target>" for everything under dir. */
export async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (abs: string, rel: string) => {
    for (const name of (await readdir(abs)).sort()) {
      const childAbs = path.join(abs, name);
      const childRel = rel ? `${rel}/${name}` : name;
      const st = await lstat(childAbs);
      const mode = (st.mode & 0o7777).toString(8);
      if (st.isSymbolicLink()) out[childRel] = `link:${await readlink(childAbs)}`;
      else if (st.isDirectory()) { out[childRel] = `dir:${mode}`; await walk(childAbs, childRel); }
      else out[childRel] = `file:${mode}:${(await readFile(childAbs)).toString('base64')}`;
    }
  };
  await walk(dir, '');
  return out;
}
