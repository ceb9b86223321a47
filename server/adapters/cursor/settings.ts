// turnback's hooks in a Cursor hooks file (`.cursor/hooks.json`, `~/.cursor/hooks.json`):
// {"version": 1, "hooks": {"<event>": [{"command": "..."}]}}. Every other key and hook is kept;
// installing twice changes nothing; an entry of another installation path is replaced, never
// doubled; removing takes out every turnback entry and nothing else.
import { join } from 'node:path';
import { jsonSettings, SettingsShapeError, type HostSettingsWriter, type JsonMerge } from '../core/settings-writer.js';
import { CURSOR_EVENTS, CURSOR_HOST, CURSOR_SCAN_EVENTS } from './event.js';

/** How long a hook that waits for a scan may take (the first scan of a big tree takes seconds). */
const SCAN_WAIT_SECONDS = 120;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A command some turnback installation registered for Cursor: `…/turnback-hook cursor [--max-time N]`. */
export function isTurnbackCursorCommand(command: unknown): boolean {
  return (
    typeof command === 'string' && /(^|[/'\s])turnback-hook'?\s+cursor(\s+--max-time\s+\d+)?$/.test(command.trim())
  );
}

const ourEntry = (event: string, command: string): Json => ({
  command: CURSOR_SCAN_EVENTS.has(event) ? `${command} --max-time ${SCAN_WAIT_SECONDS}` : command,
});

function strip(existing: unknown): { settings: Json; found: string[] } {
  if (!isObject(existing)) throw new SettingsShapeError('the hooks file does not hold a JSON object');
  const settings: Json = structuredClone(existing);
  if (settings.hooks === undefined) return { settings, found: [] };
  if (!isObject(settings.hooks)) throw new SettingsShapeError('"hooks" is not an object');
  const hooks = settings.hooks;
  const found: string[] = [];
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) {
      if ((CURSOR_EVENTS as readonly string[]).includes(event))
        throw new SettingsShapeError(`"hooks.${event}" is not an array`);
      continue;
    }
    const kept = entries.filter((entry) => !(isObject(entry) && isTurnbackCursorCommand(entry.command)));
    for (const entry of entries) if (!kept.includes(entry)) found.push(JSON.stringify([event, entry]));
    if (kept.length === entries.length) continue;
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  return { settings, found: found.sort() };
}

export function mergeCursorHooks(existing: unknown, command: string): JsonMerge {
  const { settings, found } = strip(existing);
  const wanted = CURSOR_EVENTS.map((event) => JSON.stringify([event, ourEntry(event, command)])).sort();
  if (JSON.stringify(found) === JSON.stringify(wanted))
    return { settings: structuredClone(existing) as Json, changed: false };
  // Cursor reads version 1 of the file's format.
  if (settings.version === undefined) settings.version = 1;
  if (settings.hooks === undefined) settings.hooks = {};
  const hooks = settings.hooks as Record<string, unknown[]>;
  for (const event of CURSOR_EVENTS) (hooks[event] ??= []).push(ourEntry(event, command));
  return { settings, changed: true };
}

export function removeCursorHooks(existing: unknown): JsonMerge {
  const { settings, found } = strip(existing);
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
