// Cursor as a host of the core (no CLI in the registry: built from its documented payloads).
// It reports some edits only afterwards (afterFileEdit), so every turn is scanned from its prompt
// to its end and those edits are undoable too; its replies come with afterAgentResponse, and it
// may deliver an event twice (its own hooks and Claude Code's): each is recorded once.
import type { HostAdapter } from '../core/host.js';
import { CURSOR_HOST, cursorDeliveryKey, parseCursorEvent } from './event.js';

export const cursorHost: HostAdapter = {
  name: CURSOR_HOST,
  platform: CURSOR_HOST,
  sessionType: 'ide',
  parse: parseCursorEvent,
  scansWholeTurn: true,
  deliveryKey: cursorDeliveryKey,
  // Cursor reads JSON on a hook's stdout; `user_message` is what it shows the person.
  notice: (message) => ({ stdout: `${JSON.stringify({ continue: true, user_message: message })}\n` }),
};
