// `turnback log [-n N] [--session S] [--json]`: the workspace's turns, newest first, one line each.
import { printJson, runCommand, type CommandSpec } from './client/command.js';
import { EXIT_DONE, usageError } from './client/errors.js';
import { turnLine } from './client/format.js';
import { paint, type Io } from './client/io.js';
import { recentTurns } from './client/operations.js';
import { shortIdLength } from './client/turn-ref.js';

const DEFAULT_COUNT = 20;

export const LOG: CommandSpec = {
  name: 'log',
  usage: 'turnback log [-n N] [--session S] [--json]',
  options: { n: { type: 'string', short: 'n' }, session: { type: 'string' } },
  positionals: { min: 0, max: 0 },
  async run({ io, ws, json, values }) {
    const raw = values.n as string | undefined;
    if (raw !== undefined && !/^[1-9][0-9]{0,5}$/.test(raw)) throw usageError('-n takes a count from 1 to 999999');
    const logged = await recentTurns(
      ws,
      raw === undefined ? DEFAULT_COUNT : Number(raw),
      values.session as string | undefined,
    );
    if (json) {
      printJson(io, { workspace: ws.workspace, turns: logged.map(({ turn }) => turn) });
      return EXIT_DONE;
    }
    if (logged.length === 0) {
      io.out(`no turns recorded in ${ws.workspace.root} yet\n`);
      return EXIT_DONE;
    }
    const p = paint(io.colour);
    const idLength = shortIdLength(
      logged.map(({ turn }) => turn.turnId),
      12,
    );
    const sessions = new Set(logged.map(({ session }) => session.sessionId));
    const tagLength = shortIdLength([...sessions], 8);
    for (const { session, turn } of logged) {
      io.out(`${turnLine(turn, p, idLength, sessions.size > 1 ? session.sessionId.slice(0, tagLength) : undefined)}\n`);
    }
    return EXIT_DONE;
  },
};

export function run(args: string[], io?: Io): Promise<number> {
  return runCommand(LOG, args, io);
}
