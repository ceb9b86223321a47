// `turnback restore <path>… --from <turn> [--keep-both] [--force] [--yes] [--session S] [--json]`: those paths
// back to how they were before <turn>, everything else left as it is.
import { runCommand, type CommandSpec } from './client/command.js';
import { confirmThenApply } from './client/confirm-apply.js';
import { usageError } from './client/errors.js';
import type { Io } from './client/io.js';
import { applyUndo, previewUndo, undoTarget } from './client/operations.js';
import { uriOfPath } from './client/paths.js';

export const RESTORE: CommandSpec = {
  name: 'restore',
  usage: 'turnback restore <path>... --from <turn> [--keep-both] [--force] [--yes] [--verbose] [--session S] [--json]',
  options: {
    verbose: { type: 'boolean' },
    from: { type: 'string' },
    'keep-both': { type: 'boolean' },
    force: { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
    session: { type: 'string' },
  },
  positionals: { min: 1, max: Number.MAX_SAFE_INTEGER },
  async run(context) {
    const { io, ws, values, positionals } = context;
    const from = values.from as string | undefined;
    if (from === undefined) throw usageError('restore needs --from <turn>');
    const uris = positionals.map((typed) => uriOfPath(ws.workspace.root, io.cwd, typed));
    const located = await undoTarget(ws, from, values.session as string | undefined);
    const options = { uris, force: values.force === true, keepBoth: values['keep-both'] === true };
    return confirmThenApply(context, {
      heading: `Restore ${uris.length} path(s) as they were before turn #${located.turn.number} ${JSON.stringify(located.turn.title)}:`,
      verb: 'restore',
      located,
      plan: () => previewUndo(ws, located, options),
      apply: () => applyUndo(ws, located, options),
      yes: values.yes === true,
      force: options.force,
    });
  },
};

export function run(args: string[], io?: Io): Promise<number> {
  return runCommand(RESTORE, args, io);
}
