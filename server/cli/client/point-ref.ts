// A point on the command line of `rewind` and `diff a..b`: a turn (docs/api.md "CLI: undo from
// the terminal") or a pin. `pin:<n>` or `pin:<name>` is always a pin; a number or `last` is a
// turn of the session; anything else is a pin's exact name when one has it, else a turn id prefix
// (a pin's own id is a turn id too, in the pins' session).
import type { Pin } from '../../protocol.js';
import { CliError, EXIT_USAGE } from './errors.js';
import { locateTurn, PINS_SESSION_ID, type Located } from './turn-ref.js';
import type { WorkspaceClient } from './workspace.js';

const NUMBER = /^[1-9][0-9]{0,8}$/;

const pinNotFound = (ref: string, why: string) =>
  new CliError(`${why}: turnback pins lists them`, EXIT_USAGE, 'PIN_NOT_FOUND', { ref });

/** The pin `ref` names: `pin:<n>`, `pin:<name>`, its exact name, or a unique prefix of its id. */
export async function findPin(ws: WorkspaceClient, ref: string): Promise<Pin> {
  const pins = await ws.pins();
  const body = ref.startsWith('pin:') ? ref.slice(4) : ref;
  if (ref.startsWith('pin:') && NUMBER.test(body)) {
    const pin = pins.find((candidate) => candidate.number === Number(body));
    if (pin) return pin;
    throw pinNotFound(ref, `no pin number ${body}`);
  }
  const named = pins.filter((pin) => pin.name === body);
  if (named.length === 1) return named[0];
  if (named.length > 1)
    throw new CliError(
      `${named.length} pins are named ${JSON.stringify(body)}: give pin:<n> or its id`,
      EXIT_USAGE,
      'PIN_NOT_FOUND',
      { ref },
    );
  const byId = pins.filter((pin) => pin.turnId.startsWith(body) || pin.turnId.startsWith(`t_${body}`));
  if (byId.length === 1) return byId[0];
  throw pinNotFound(ref, byId.length === 0 ? `no pin ${ref}` : `${ref} names ${byId.length} pins: give more of its id`);
}

/** A pin as a located turn of the pins' session, as the rewind route takes it. */
export async function locatePin(ws: WorkspaceClient, pin: Pin): Promise<Located> {
  return locateTurn(ws, pin.turnId, PINS_SESSION_ID);
}

/** A turn or a pin; `isPin` tells which, so `rewind` says "pin" and rewinds the pins' session. */
export async function locatePoint(
  ws: WorkspaceClient,
  ref: string,
  sessionFlag: string | undefined,
): Promise<Located & { pin?: Pin }> {
  if (ref.startsWith('pin:')) {
    const pin = await findPin(ws, ref);
    return { ...(await locatePin(ws, pin)), pin };
  }
  if (ref !== 'last' && !NUMBER.test(ref)) {
    const pin = (await ws.pins()).find((candidate) => candidate.name === ref);
    if (pin) return { ...(await locatePin(ws, pin)), pin };
  }
  const located = await locateTurn(ws, ref, sessionFlag);
  if (located.session.sessionId !== PINS_SESSION_ID) return located;
  const pin = (await ws.pins()).find((candidate) => candidate.turnId === located.turn.turnId);
  return pin ? { ...located, pin } : located;
}
