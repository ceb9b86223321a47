import path from 'node:path';
import { turnbackStateDir } from '../state-dir.js';

/** `…/turnback/demo/workspace` under the state dir (docs/api.md "Build and run"). */
export function defaultDemoWorkspace(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(turnbackStateDir(env), 'demo', 'workspace');
}
