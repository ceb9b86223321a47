// `turnback pin [name] [--json]`: marks the workspace's current state as a named point, kept from
// retention until unpinned; `turnback rewind <pin>` goes back to it.
import { printJson, runCommand, type CommandSpec } from './client/command.js';
import { EXIT_DONE } from './client/errors.js';
import type { Io } from './client/io.js';

export const PIN: CommandSpec = {
  name: 'pin',
  usage: 'turnback pin [name] [--json]',
  options: {},
  positionals: { min: 0, max: 1 },
  async run({ io, ws, json, positionals }) {
    const pin = await ws.pin(positionals[0]);
    if (json) printJson(io, { pin });
    else
      io.out(
        `pinned pin:${pin.number} ${JSON.stringify(pin.name)} (${pin.turnId}); turnback rewind pin:${pin.number} goes back to it\n`,
      );
    return EXIT_DONE;
  },
};

export function run(args: string[], io?: Io): Promise<number> {
  return runCommand(PIN, args, io);
}
