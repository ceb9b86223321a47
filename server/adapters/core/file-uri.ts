// The workspace URI of the file a tool is about to change: its path resolved against the cwd,
// taken as it is on disk, inside the workspace (compared as given and through symlinks).
import { resolve } from 'node:path';
import { relativeInsideAnyForm, workspaceUri } from './paths.js';

export type FileUri = { uri: string } | { skip: string };

export function fileUriFor(cwd: string, path: string, workspace: string): FileUri {
  const absolutePath = resolve(cwd, path);
  const relativePath = relativeInsideAnyForm(workspace, absolutePath);
  if (relativePath === null) return { skip: `path outside the workspace: ${absolutePath}` };
  if (relativePath === '') return { skip: 'path is the workspace itself' };
  return { uri: workspaceUri(relativePath) };
}
