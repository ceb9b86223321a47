// `turnback unpin <pin> [--json]`: gives a pin back to retention (the point itself stays listed
// among the turns until retention prunes it).
import { printJson, runCommand, type CommandSpec } from './client/command.js';
import { EXIT_DONE } from './client/errors.js';
import type { Io } from './client/io.js';
import { findPin } from './client/point-ref.js';

export const UNPIN: CommandSpec = {
  name: 'unpin',
  usage: 'turnback unpin <pin> [--json]',
  options: {},
  positionals: { min: 1, max: 1 },
  async run({ io, ws, json, positionals }) {
    const pin = await findPin(ws, positionals[0]);
    await ws.unpin(pin.turnId);
    if (json) printJson(io, { unpinned: pin });
    else io.out(`unpinned pin:${pin.number} ${JSON.stringify(pin.name)}; retention may prune it now\n`);
    return EXIT_DONE;
  },
};

export function run(args: string[], io?: Io): Promise<number> {
  return runCommand(UNPIN, args, io);
}
