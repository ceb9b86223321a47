// `turnback init antigravity`: turnback's hooks as one named entry, "turnback", of the project's
// `.agents/hooks.json` (agy 1.1's format: the top-level keys are hook names; PreToolUse and
// PostToolUse take `{matcher, hooks: [handler]}` groups, PreInvocation and Stop plain handlers;
// a handler is `{type: "command", command, timeout}` with a whole number of seconds, as agy
// refuses the whole file over a fractional one). Every other named hook is kept; installing twice
// changes nothing; removing takes the entry out (the file goes when nothing else was in it).
// --global writes `~/.agents/hooks.json`: where agy reads user-wide hooks is not documented.
import { join } from 'node:path';
import { jsonSettings, SettingsShapeError, type HostSettingsWriter, type JsonMerge } from '../core/settings-writer.js';
import { ANTIGRAVITY_EVENTS, ANTIGRAVITY_HOST, ANTIGRAVITY_SCAN_EVENTS } from './event.js';

/** How long a tool's hook waits for a scan: the tool must not run before its before scan is done. */
const SCAN_WAIT_SECONDS = 120;
const SCAN_HOOK_TIMEOUT_SECONDS = SCAN_WAIT_SECONDS + 10;
const HOOK_TIMEOUT_SECONDS = 10;
export const HOOK_NAME = 'turnback';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function ourEntry(command: string): Json {
  const entry: Json = {};
  for (const event of ANTIGRAVITY_EVENTS) {
    const handler = ANTIGRAVITY_SCAN_EVENTS.has(event)
      ? { type: 'command', command: `${command} --max-time ${SCAN_WAIT_SECONDS}`, timeout: SCAN_HOOK_TIMEOUT_SECONDS }
      : { type: 'command', command, timeout: HOOK_TIMEOUT_SECONDS };
    entry[event] = event === 'PreToolUse' || event === 'PostToolUse' ? [{ matcher: '*', hooks: [handler] }] : [handler];
  }
  return entry;
}

function checked(existing: unknown): Json {
  if (!isObject(existing)) throw new SettingsShapeError('the hooks file does not hold a JSON object');
  return structuredClone(existing);
}

export function mergeAntigravityHooks(existing: unknown, command: string): JsonMerge {
  const settings = checked(existing);
  const wanted = ourEntry(command);
  if (JSON.stringify(settings[HOOK_NAME]) === JSON.stringify(wanted)) return { settings, changed: false };
  settings[HOOK_NAME] = wanted;
  return { settings, changed: true };
}

export function removeAntigravityHooks(existing: unknown): JsonMerge {
  const settings = checked(existing);
  if (!(HOOK_NAME in settings)) return { settings, changed: false };
  delete settings[HOOK_NAME];
  return { settings, changed: true };
}

export const antigravitySettingsWriter: HostSettingsWriter = {
  host: ANTIGRAVITY_HOST,
  settingsFile: ({ workspace, home, global }) => join(global ? home : workspace, '.agents', 'hooks.json'),
  ...jsonSettings(mergeAntigravityHooks, removeAntigravityHooks),
  afterInstall: () => [
    'Antigravity (agy) runs .agents/hooks.json of the folder it works in: start it there (or with --add-dir);',
    "`agy -p` alone works in a scratch folder of its own. Entire reports that agy's hooks do not fire under",
    'API-key auth. Built from its documented payloads, not verified on a run.',
  ],
};
