// `turnback diff <turn> [path…] [--session S] [--json]`: the turn's change as a unified diff,
// coloured on a terminal, plain in a pipe. `turnback diff <a>..<b>` (turns or pins) compares the
// tree at the end of a with the tree at the end of b.
import { comparePoints, splitRange } from './client/compare.js';
import { printJson, runCommand, type CommandSpec } from './client/command.js';
import { EXIT_DONE } from './client/errors.js';
import { paint, type Io } from './client/io.js';
import { diffTurn, turnDiffs } from './client/operations.js';
import { displayPath, uriOfPath } from './client/paths.js';
import { locateTurn } from './client/turn-ref.js';
import { colourDiff } from './client/unified-diff.js';

export const DIFF: CommandSpec = {
  name: 'diff',
  usage: 'turnback diff <turn>|<a>..<b> [path...] [--session S] [--json]',
  options: { session: { type: 'string' } },
  positionals: { min: 1, max: Number.MAX_SAFE_INTEGER },
  async run({ io, ws, json, values, positionals }) {
    const [ref, ...paths] = positionals;
    const root = ws.workspace.root;
    const uris = paths.map((typed) => uriOfPath(root, io.cwd, typed));
    // Names in the patch are workspace-relative, as git's are repository-relative.
    const name = (uri: string) => uri.replace(/^workspace:\//, '');
    const p = paint(io.colour);
    const range = splitRange(ref);
    if (range) {
      const { from, to, diffs } = await comparePoints(
        ws,
        range[0],
        range[1],
        uris,
        values.session as string | undefined,
        name,
      );
      if (json) {
        printJson(io, {
          from: from.turn.turnId,
          to: to.turn.turnId,
          diffs: diffs.map(({ diff, change, patch }) => ({ ...diff, change: change?.change, patch })),
        });
        return EXIT_DONE;
      }
      for (const { patch } of diffs) io.out(io.colour ? colourDiff(patch, p) : patch);
      if (diffs.length === 0)
        io.err(`turnback diff: ${ref}: no file differs${uris.length ? ' among those paths' : ''}\n`);
      return EXIT_DONE;
    }
    const located = await locateTurn(ws, ref, values.session as string | undefined);
    if (json) {
      const diffs = await diffTurn(ws, located, uris, name);
      printJson(io, { turnId: located.turn.turnId, diffs: diffs.map(({ diff, patch }) => ({ ...diff, patch })) });
      return EXIT_DONE;
    }
    // Each file's patch is printed as it arrives: a 5,000-file turn starts at once.
    let printed = 0;
    for await (const { patch } of turnDiffs(ws, located, uris, name)) {
      io.out(io.colour ? colourDiff(patch, p) : patch);
      printed++;
    }
    if (printed === 0)
      io.err(
        `turnback diff: turn #${located.turn.number} changed no ${uris.length ? 'such path' : 'file'}${uris.length ? `: ${paths.map((t) => displayPath(root, io.cwd, uriOfPath(root, io.cwd, t))).join(', ')}` : ''}\n`,
      );
    return EXIT_DONE;
  },
};

export function run(args: string[], io?: Io): Promise<number> {
  return runCommand(DIFF, args, io);
}
