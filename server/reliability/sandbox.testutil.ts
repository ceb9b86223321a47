// A throwaway place for one case: a base temp dir holding the workspace, the data dir and an
// `outside` dir that nothing may ever touch (a symlink in the workspace points at it).
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeTempTree } from '../testkit/sandbox.js';

export interface Sandbox {
  base: string;
  workspace: string;
  dataDir: string;
  outside: string;
  cleanup(): Promise<void>;
}

export async function makeSandbox(files: Record<string, string> = {}): Promise<Sandbox> {
  const tree = await makeTempTree('rel');
  await writeFile(join(tree.outside, 'secret.txt'), 'outside the workspace: never touched\n');
  await writeWorkspace(tree.workspace, files);
  return tree;
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
