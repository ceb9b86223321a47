// `turnback pins [--json]`: the workspace's pins, oldest first, one line each.
import { printJson, runCommand, type CommandSpec } from './client/command.js';
import { EXIT_DONE } from './client/errors.js';
import { shortTime } from './client/format.js';
import { paint, type Io } from './client/io.js';

export const PINS: CommandSpec = {
  name: 'pins',
  usage: 'turnback pins [--json]',
  options: {},
  positionals: { min: 0, max: 0 },
  async run({ io, ws, json }) {
    const pins = await ws.pins();
    if (json) {
      printJson(io, { workspace: ws.workspace, pins });
      return EXIT_DONE;
    }
    const p = paint(io.colour);
    if (pins.length === 0) io.err('turnback pins: no pins in this workspace; turnback pin [name] marks one\n');
    for (const pin of pins)
      io.out(`${p.yellow(`pin:${pin.number}`.padEnd(7))}  ${p.dim(pin.turnId)}  ${shortTime(pin.at)}  ${pin.name}\n`);
    return EXIT_DONE;
  },
};

export function run(args: string[], io?: Io): Promise<number> {
  return runCommand(PINS, args, io);
}
