// Merges turnback's hook entries into a Claude Code settings object:
// {"hooks": {"<Event>": [{"matcher"?: "...", "hooks": [{"type": "command", "command": "..."}]}]}}.
// Every existing key and hook is kept; an entry that is already there is not added again,
// and a turnback entry from another installation path is pointed at this one.

export const TOOL_MATCHER = 'Write|Edit|MultiEdit|NotebookEdit|Bash';

const EVENTS: { event: string; matcher?: string }[] = [
  { event: 'UserPromptSubmit' },
  { event: 'PreToolUse', matcher: TOOL_MATCHER },
  { event: 'Stop' },
];

type Json = Record<string, unknown>;

export class SettingsShapeError extends Error {
  readonly code = 'BAD_SETTINGS';
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A command some turnback installation registered for this hook: the sh entry
 * (`…/bin/turnback-hook`, quoted or not) or, from earlier versions, the Node one
 * (`node …/turnback.js hook claude-code`).
 */
export function isTurnbackHookCommand(command: unknown): boolean {
  if (typeof command !== 'string') return false;
  const trimmed = command.trim();
  if (/(^|[/'\s])turnback-hook'?$/.test(trimmed)) return true;
  return /turnback/.test(trimmed) && /\shook claude-code$/.test(trimmed);
}

export interface MergeResult {
  settings: Json;
  changed: boolean;
}

interface OurHook {
  group: Json & { hooks: unknown[] };
  hook: Json;
}

function ourHooks(groups: unknown[]): OurHook[] {
  return groups
    .filter((group): group is Json & { hooks: unknown[] } => isObject(group) && Array.isArray(group.hooks))
    .flatMap((group) => group.hooks.filter(isObject).map((hook) => ({ group, hook })))
    .filter(({ hook }) => isTurnbackHookCommand(hook.command));
}

/**
 * Exactly one turnback hook per event, running `command`: an entry already there (this
 * installation's, or another version's or path's) is kept and pointed at it, any further
 * one is dropped so the event is never forwarded twice.
 */
export function mergeHookSettings(existing: unknown, command: string): MergeResult {
  if (!isObject(existing)) throw new SettingsShapeError('the settings file does not hold a JSON object');
  const settings: Json = structuredClone(existing);
  if (settings.hooks === undefined) settings.hooks = {};
  if (!isObject(settings.hooks)) throw new SettingsShapeError('"hooks" is not an object');
  const hooks = settings.hooks;
  let changed = false;

  for (const { event, matcher } of EVENTS) {
    if (hooks[event] === undefined) hooks[event] = [];
    const groups = hooks[event];
    if (!Array.isArray(groups)) throw new SettingsShapeError(`"hooks.${event}" is not an array`);

    const ours = ourHooks(groups);
    if (ours.length === 0) {
      groups.push({ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command }] });
      changed = true;
      continue;
    }
    const keep = ours.find(({ hook }) => hook.command === command) ?? ours[0];
    if (keep.hook.command !== command) {
      keep.hook.command = command;
      changed = true;
    }
    for (const extra of ours) {
      if (extra === keep) continue;
      extra.group.hooks.splice(extra.group.hooks.indexOf(extra.hook), 1);
      if (extra.group.hooks.length === 0) groups.splice(groups.indexOf(extra.group), 1);
      changed = true;
    }
  }
  return { settings, changed };
}

/** Quotes a word for the shell Claude Code runs hook commands with. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
