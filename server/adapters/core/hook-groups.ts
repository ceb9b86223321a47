// turnback's hook groups in a JSON hooks object, the shape Claude Code, Codex and Gemini CLI
// share: {"hooks": {"<Event>": [{"matcher"?: "...", "hooks": [{"type": "command", "command":
// "...", …}]}]}}. Every other key and hook is kept. Installing twice changes nothing; an entry
// of another installation path or an earlier version is replaced, never doubled; removing takes
// out every turnback entry and nothing else. Each host says which commands are turnback's and
// builds its own groups (matchers, timeouts); this merges them in and takes them out.
import { SettingsShapeError, type JsonMerge } from './settings-writer.js';

type Json = Record<string, unknown>;

/** One group turnback registers: `{ matcher?, hooks: [the hook] }` under `hooks.<event>`. */
export interface HookGroup {
  event: string;
  group: Json;
}

export interface HookGroupsOptions {
  /** A command some turnback installation registered (this one, another path, an earlier version). */
  isOurs(command: unknown): boolean;
  /** The events turnback registers: one of them that is not an array cannot be edited. */
  events: readonly string[];
  /** How the shape errors name the file ("the settings file", "the hooks file"). */
  fileName: string;
  /** A "hooks" that held turnback's alone goes with them. */
  dropEmptyHooks?: boolean;
}

export interface HookGroupsEditor {
  /** Exactly `wanted` as turnback's groups in `existing`: unchanged when they are there already. */
  merge(existing: unknown, wanted: HookGroup[]): JsonMerge;
  /** `existing` without turnback's hooks (`init --remove`). */
  remove(existing: unknown): JsonMerge;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const key = (event: string, matcher: unknown, hook: unknown) => JSON.stringify([event, matcher ?? null, hook]);

export function hookGroupsEditor(options: HookGroupsOptions): HookGroupsEditor {
  /** A copy of `existing` without any turnback hook, and turnback's entries that were there (sorted keys); emptied groups and events go. */
  const strip = (existing: unknown): { settings: Json; found: string[] } => {
    if (!isObject(existing)) throw new SettingsShapeError(`${options.fileName} does not hold a JSON object`);
    const settings: Json = structuredClone(existing);
    if (settings.hooks === undefined) return { settings, found: [] };
    if (!isObject(settings.hooks)) throw new SettingsShapeError('"hooks" is not an object');
    const hooks = settings.hooks;
    const found: string[] = [];
    for (const [event, groups] of Object.entries(hooks)) {
      if (!Array.isArray(groups)) {
        if (options.events.includes(event)) throw new SettingsShapeError(`"hooks.${event}" is not an array`);
        continue;
      }
      const kept = groups.filter((group) => {
        if (!isObject(group) || !Array.isArray(group.hooks)) return true;
        const all: unknown[] = group.hooks;
        const ours = all.filter((hook) => isObject(hook) && options.isOurs(hook.command));
        if (ours.length === 0) return true;
        // A group that holds other hooks too is not exactly ours: counted so that it is rewritten.
        const alone = ours.length === all.length;
        for (const hook of ours) found.push(alone ? key(event, group.matcher, hook) : `shared ${event}`);
        group.hooks = all.filter((hook) => !ours.includes(hook));
        return ours.length < all.length;
      });
      if (kept.length === groups.length) continue;
      if (kept.length === 0) delete hooks[event];
      else hooks[event] = kept;
    }
    if (options.dropEmptyHooks && found.length > 0 && Object.keys(hooks).length === 0) delete settings.hooks;
    return { settings, found: found.sort() };
  };

  return {
    merge: (existing, wanted) => {
      const { settings, found } = strip(existing);
      const wantedKeys = wanted
        .map(({ event, group }) => key(event, group.matcher, (group.hooks as unknown[])[0]))
        .sort();
      if (JSON.stringify(found) === JSON.stringify(wantedKeys))
        return { settings: structuredClone(existing) as Json, changed: false };
      if (settings.hooks === undefined) settings.hooks = {};
      const hooks = settings.hooks as Record<string, unknown[]>;
      for (const { event, group } of wanted) (hooks[event] ??= []).push(group);
      return { settings, changed: true };
    },
    remove: (existing) => {
      const { settings, found } = strip(existing);
      return { settings, changed: found.length > 0 };
    },
  };
}
