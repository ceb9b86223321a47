// `turnback redo [--force] [--only-here] [--yes] [--session S] [--json]`: undoes the session's last undo (its
// rollback turn), so the files are again as the agent left them.
import { runCommand, type CommandSpec } from './client/command.js';
import { confirmThenApply } from './client/confirm-apply.js';
import type { Io } from './client/io.js';
import { applyUndo, previewUndo, redoTarget } from './client/operations.js';

export const REDO: CommandSpec = {
  name: 'redo',
  usage: 'turnback redo [--force] [--only-here] [--yes] [--verbose] [--session S] [--json]',
  options: {
    force: { type: 'boolean' },
    'only-here': { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
    verbose: { type: 'boolean' },
    session: { type: 'string' },
  },
  positionals: { min: 0, max: 0 },
  async run(context) {
    const { ws, values } = context;
    const located = await redoTarget(ws, values.session as string | undefined);
    const options = { force: values.force === true, onlyHere: values['only-here'] === true };
    return confirmThenApply(context, {
      heading: `Redo: take back undo #${located.turn.number} ${JSON.stringify(located.turn.title)}:`,
      verb: 'redo',
      located,
      plan: () => previewUndo(ws, located, options),
      apply: () => applyUndo(ws, located, options),
      yes: values.yes === true,
      force: options.force,
    });
  },
};

export function run(args: string[], io?: Io): Promise<number> {
  return runCommand(REDO, args, io);
}
