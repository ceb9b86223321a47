// `turnback demo` (what `npm start` runs): seeds a demo workspace once, then serves it.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { defaultDemoWorkspace } from '../demo/paths.js';
import { DEMO_MAX_FILE_SIZE } from '../demo/script.js';
import { DemoWorkspaceNotEmptyError, seedDemo } from '../demo/seed.js';
import { serveFlagsOrExit } from './args.js';
import { launch } from './launch.js';
import { StartupError } from './startup-errors.js';

export async function run(args: string[]): Promise<number> {
  const flags = serveFlagsOrExit(args, 'demo');
  if (typeof flags === 'number') return flags;
  const workspace = path.resolve(flags.workspace ?? defaultDemoWorkspace());
  try {
    mkdirSync(workspace, { recursive: true });
  } catch (err) {
    process.stderr.write(`turnback: cannot create the demo workspace ${workspace}: ${(err as Error).message}\n`);
    return 2;
  }
  return launch({
    flags: { ...flags, workspace },
    maxFileSize: DEMO_MAX_FILE_SIZE,
    prepare: async (engine) => {
      try {
        await seedDemo(engine);
      } catch (err) {
        if (err instanceof DemoWorkspaceNotEmptyError) throw new StartupError(err.message);
        throw err;
      }
    },
  });
}
