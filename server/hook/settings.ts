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

/** A command some turnback installation registered for this hook. */
export function isTurnbackHookCommand(command: unknown): boolean {
  return typeof command === 'string' && /turnback/.test(command) && /\shook claude-code$/.test(command.trim());
}

export interface MergeResult {
  settings: Json;
  changed: boolean;
}

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

    const ours = groups
      .filter(isObject)
      .flatMap((group) => (Array.isArray(group.hooks) ? group.hooks.filter(isObject) : []))
      .filter((hook) => isTurnbackHookCommand(hook.command));
    if (ours.some((hook) => hook.command === command)) continue;
    if (ours.length > 0) {
      for (const hook of ours) hook.command = command;
    } else {
      groups.push({ ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command }] });
    }
    changed = true;
  }
  return { settings, changed };
}

/** Quotes a word for the shell Claude Code runs hook commands with. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
