// turnback's hooks in a Cursor hooks file (`.cursor/hooks.json`, `~/.cursor/hooks.json`):
// {"version": 1, "hooks": {"<event>": [{"command": "..."}]}}. Every other key and hook is kept;
// installing twice changes nothing; an entry of another installation path is replaced, never
// doubled; removing takes out every turnback entry and nothing else.
import { join } from 'node:path';
import { jsonSettings, type HostSettingsWriter, type JsonMerge } from '../core/settings-writer.js';
import { mergeOurHooks, stripOurHooks, type VersionedHooksFile } from '../core/versioned-hooks-file.js';
import { CURSOR_EVENTS, CURSOR_HOST, CURSOR_SCAN_EVENTS } from './event.js';

/** How long a hook that waits for a scan may take (the first scan of a big tree takes seconds). */
const SCAN_WAIT_SECONDS = 120;

type Json = Record<string, unknown>;

/** A command some turnback installation registered for Cursor: `…/turnback-hook cursor [--max-time N]`. */
export function isTurnbackCursorCommand(command: unknown): boolean {
  return (
    typeof command === 'string' && /(^|[/'\s])turnback-hook'?\s+cursor(\s+--max-time\s+\d+)?$/.test(command.trim())
  );
}

const ourEntry = (event: string, command: string): Json => ({
  command: CURSOR_SCAN_EVENTS.has(event) ? `${command} --max-time ${SCAN_WAIT_SECONDS}` : command,
});

const CURSOR_FILE: VersionedHooksFile = {
  events: CURSOR_EVENTS,
  ourEntry,
  isOurs: (entry) => isTurnbackCursorCommand(entry.command),
};

export function mergeCursorHooks(existing: unknown, command: string): JsonMerge {
  return mergeOurHooks(existing, command, CURSOR_FILE);
}

export function removeCursorHooks(existing: unknown): JsonMerge {
  const { settings, found } = stripOurHooks(existing, CURSOR_FILE);
  return { settings, changed: found.length > 0 };
}

export const cursorSettingsWriter: HostSettingsWriter = {
  host: CURSOR_HOST,
  settingsFile: ({ workspace, home, global }) => join(global ? home : workspace, '.cursor', 'hooks.json'),
  ...jsonSettings(mergeCursorHooks, removeCursorHooks),
  afterInstall: () => [
    'Cursor picks the hooks up when it next starts an agent; its Hooks output channel shows them running.',
  ],
};
