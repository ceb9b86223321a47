// A hooks file of the shape Cursor and Copilot CLI read: {"version": 1, "hooks": {"<event>":
// [entry, ...]}}. turnback's entries are found by their command, so an entry of another
// installation path is replaced, never doubled; every other key and hook is kept.
import { SettingsShapeError, type JsonMerge } from './settings-writer.js';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface VersionedHooksFile {
  /** The host's events turnback registers, in the order they are written. */
  events: readonly string[];
  /** turnback's entry for one event. */
  ourEntry(event: string, command: string): Json;
  /** Whether an entry (any installation's) is turnback's. */
  isOurs(entry: Json): boolean;
}

/** The file without turnback's entries, and those entries (as `[event, entry]` JSON, sorted). */
export function stripOurHooks(existing: unknown, file: VersionedHooksFile): { settings: Json; found: string[] } {
  if (!isObject(existing)) throw new SettingsShapeError('the hooks file does not hold a JSON object');
  const settings: Json = structuredClone(existing);
  if (settings.hooks === undefined) return { settings, found: [] };
  if (!isObject(settings.hooks)) throw new SettingsShapeError('"hooks" is not an object');
  const hooks = settings.hooks;
  const found: string[] = [];
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) {
      if (file.events.includes(event)) throw new SettingsShapeError(`"hooks.${event}" is not an array`);
      continue;
    }
    const kept = entries.filter((entry) => !(isObject(entry) && file.isOurs(entry)));
    for (const entry of entries) if (!kept.includes(entry)) found.push(JSON.stringify([event, entry]));
    if (kept.length === entries.length) continue;
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  return { settings, found: found.sort() };
}

/** turnback's entries written for `command` (unchanged when they are there already). */
export function mergeOurHooks(existing: unknown, command: string, file: VersionedHooksFile): JsonMerge {
  const { settings, found } = stripOurHooks(existing, file);
  const wanted = file.events.map((event) => JSON.stringify([event, file.ourEntry(event, command)])).sort();
  if (JSON.stringify(found) === JSON.stringify(wanted))
    return { settings: structuredClone(existing) as Json, changed: false };
  // Both hosts read version 1 of the file's format.
  if (settings.version === undefined) settings.version = 1;
  if (settings.hooks === undefined) settings.hooks = {};
  const hooks = settings.hooks as Record<string, unknown[]>;
  for (const event of file.events) (hooks[event] ??= []).push(file.ourEntry(event, command));
  return { settings, changed: true };
}
