// `turnback rewind <turn|pin> [--with-chat] [--keep-both] [--force] [--yes] [--session S] [--json]`:
// the session's files back to how they were when <turn> began (that turn and every later one
// undone as one), or every path changed since a pin back to its state at the pin.
import { runCommand, type CommandSpec } from './client/command.js';
import { confirmThenApply } from './client/confirm-apply.js';
import { refused, usageError } from './client/errors.js';
import type { Io } from './client/io.js';
import { applyRewind, previewRewind } from './client/operations.js';
import { locatePoint } from './client/point-ref.js';

export const REWIND: CommandSpec = {
  name: 'rewind',
  usage: 'turnback rewind <turn|pin> [--with-chat] [--keep-both] [--force] [--yes] [--verbose] [--session S] [--json]',
  options: {
    verbose: { type: 'boolean' },
    'with-chat': { type: 'boolean' },
    'keep-both': { type: 'boolean' },
    force: { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
    session: { type: 'string' },
  },
  positionals: { min: 1, max: 1 },
  async run(context) {
    const { ws, values, positionals } = context;
    const located = await locatePoint(ws, positionals[0], values.session as string | undefined);
    const withChat = values['with-chat'] === true;
    if (located.pin && withChat) throw usageError('a pin has no chat to rewind: rewind to a pin without --with-chat');
    if (located.session.activeTurnId) {
      throw refused(
        `session ${located.session.sessionId} has a turn running: rewind waits until it ends`,
        'TURN_ACTIVE',
      );
    }
    const options = { withChat, force: values.force === true, keepBoth: values['keep-both'] === true };
    return confirmThenApply(context, {
      heading: located.pin
        ? `Rewind to pin ${JSON.stringify(located.pin.name)} (pin:${located.pin.number}): every path changed since, back to its state then:`
        : `Rewind to the start of turn #${located.turn.number} ${JSON.stringify(located.turn.title)}${withChat ? ', chat included' : ''}:`,
      verb: 'rewind',
      located,
      plan: () => previewRewind(ws, located, options),
      apply: () => applyRewind(ws, located, options),
      yes: values.yes === true,
      force: options.force,
    });
  },
};

export function run(args: string[], io?: Io): Promise<number> {
  return runCommand(REWIND, args, io);
}
