// `turnback undo [<turn>] [--with-chat] [--files <path>…] [--step N]… [--keep-both] [--git-add] [--force] [--only-here] [--yes]
// [--session S] [--json]`: by default the latest agent turn of the workspace's most recent session;
// never an active turn. `--step` takes back only what those steps of the turn changed.
import { runCommand, type CommandSpec } from './client/command.js';
import { confirmThenApply } from './client/confirm-apply.js';
import { usageError } from './client/errors.js';
import type { Io } from './client/io.js';
import { applyUndo, previewUndo, undoTarget } from './client/operations.js';
import { uriOfPath } from './client/paths.js';

export const UNDO: CommandSpec = {
  name: 'undo',
  usage:
    'turnback undo [<turn>] [--with-chat] [--files <path>...] [--step N]... [--keep-both] [--git-add] [--force] [--only-here] [--yes] [--verbose] [--session S] [--json]',
  options: {
    verbose: { type: 'boolean' },
    'with-chat': { type: 'boolean' },
    files: { type: 'string', multiple: true },
    step: { type: 'string', multiple: true },
    'keep-both': { type: 'boolean' },
    'git-add': { type: 'boolean' },
    force: { type: 'boolean' },
    'only-here': { type: 'boolean' },
    yes: { type: 'boolean', short: 'y' },
    session: { type: 'string' },
  },
  positionals: { min: 0, max: Number.MAX_SAFE_INTEGER },
  async run(context) {
    const { io, ws, values } = context;
    // `--files a b c`: parseArgs gives the flag one value; the positionals after it are paths too.
    const files = values.files as string[] | undefined;
    const filesAt =
      context.tokens.find((token) => token.kind === 'option' && token.name === 'files')?.index ?? Infinity;
    const positional = context.tokens.filter((token) => token.kind === 'positional');
    const [ref, ...extra] = positional.filter((token) => token.index < filesAt).map((token) => token.value);
    if (extra.length > 0) throw usageError(`unexpected argument ${JSON.stringify(extra[0])}`);
    const paths =
      files === undefined
        ? undefined
        : [...files, ...positional.filter((token) => token.index > filesAt).map((token) => token.value)];
    const withChat = values['with-chat'] === true;
    if (withChat && paths) throw usageError('--with-chat undoes a whole turn: it does not take --files');
    const steps = (values.step as string[] | undefined)?.map((raw) => {
      if (!/^[1-9][0-9]{0,8}$/.test(raw))
        throw usageError(
          `--step takes a step's number in the turn (turnback show lists them), not ${JSON.stringify(raw)}`,
        );
      return Number(raw);
    });
    if (steps && (paths || withChat))
      throw usageError('--step chooses what to undo by step: not with --files or --with-chat');
    const uris = paths?.map((typed) => uriOfPath(ws.workspace.root, io.cwd, typed));
    const located = await undoTarget(ws, ref, values.session as string | undefined);
    const options = {
      uris,
      steps,
      withChat,
      force: values.force === true,
      keepBoth: values['keep-both'] === true,
      onlyHere: values['only-here'] === true,
    };
    const part = uris
      ? ` (${uris.length} path(s))`
      : steps
        ? `, step${steps.length > 1 ? 's' : ''} ${steps.join(', ')}`
        : '';
    return confirmThenApply(context, {
      heading: `Undo turn #${located.turn.number} ${JSON.stringify(located.turn.title)}${part}${withChat ? ' and its chat' : ''}:`,
      verb: 'undo',
      located,
      plan: () => previewUndo(ws, located, options),
      apply: () => applyUndo(ws, located, options),
      yes: values.yes === true,
      force: options.force,
      gitAdd: values['git-add'] === true,
    });
  },
};

export function run(args: string[], io?: Io): Promise<number> {
  return runCommand(UNDO, args, io);
}
