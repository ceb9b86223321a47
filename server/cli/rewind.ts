// `turnback rewind <turn> [--with-chat] [--force] [--yes] [--session S] [--json]`: the session's
// files back to how they were when <turn> began: that turn and every later one undone as one.
import { runCommand, type CommandSpec } from './client/command.js';
import { confirmThenApply } from './client/confirm-apply.js';
import { refused } from './client/errors.js';
import type { Io } from './client/io.js';
import { applyRewind, previewRewind } from './client/operations.js';
import { locateTurn } from './client/turn-ref.js';

export const REWIND: CommandSpec = {
  name: 'rewind',
  usage: 'turnback rewind <turn> [--with-chat] [--force] [--yes] [--session S] [--json]',
  options: {
    'with-chat': { type: 'boolean' }, force: { type: 'boolean' }, yes: { type: 'boolean', short: 'y' }, session: { type: 'string' },
  },
  positionals: { min: 1, max: 1 },
  async run(context) {
    const { ws, values, positionals } = context;
    const located = await locateTurn(ws, positionals[0], values.session as string | undefined);
    if (located.session.activeTurnId) {
      throw refused(`session ${located.session.sessionId} has a turn running: rewind waits until it ends`, 'TURN_ACTIVE');
    }
    const withChat = values['with-chat'] === true;
    const force = values.force === true;
    return confirmThenApply(context, {
      heading: `Rewind to the start of turn #${located.turn.number} ${JSON.stringify(located.turn.title)}${withChat ? ', chat included' : ''}:`,
      verb: 'rewind',
      located,
      plan: () => previewRewind(ws, located, withChat),
      apply: () => applyRewind(ws, located, withChat, force),
      yes: values.yes === true,
      force,
    });
  },
};

export function run(args: string[], io?: Io): Promise<number> {
  return runCommand(REWIND, args, io);
}
