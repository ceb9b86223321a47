// turnback's entries in a Codex hooks file (`<repo>/.codex/hooks.json` or `~/.codex/hooks.json`):
// {"hooks": {"<Event>": [{"matcher"?: "...", "hooks": [{"type": "command", "command": "...", "timeout": s}]}]}}.
// Every other key and hook is kept. Installing twice changes nothing; an entry of another
// installation path is replaced, never doubled; removing takes out every turnback entry and
// nothing else. Codex's timeouts are in seconds; it clamps SessionEnd's and Interrupt's to 3.
import { SettingsShapeError, type JsonMerge } from '../core/settings-writer.js';

/** How long a tool's hook waits for a scan: the command must not run before its before scan is done. */
const SCAN_WAIT_SECONDS = 120;
/** Codex's own limit for those hooks: a little longer, so the hook gives up (and logs) first. */
const SCAN_HOOK_TIMEOUT_SECONDS = SCAN_WAIT_SECONDS + 10;
/** The hook's own wait for any other call (it gives up after 2 s), with room to start. */
const HOOK_TIMEOUT_SECONDS = 10;
/** What Codex allows the events of a session's end at most. */
const SESSION_END_TIMEOUT_SECONDS = 3;

interface OurGroup {
  event: string;
  matcher?: string;
  scan?: boolean;
  timeout?: number;
}

/** Every tool, one group each way: Codex's matchers are Rust regexes (no look-ahead), and apply_patch needs no scan but is answered at once. */
const OUR_GROUPS: readonly OurGroup[] = [
  { event: 'UserPromptSubmit' },
  { event: 'PreToolUse', matcher: '*', scan: true },
  { event: 'PostToolUse', matcher: '*', scan: true },
  { event: 'SubagentStart' },
  { event: 'SubagentStop' },
  { event: 'Stop' },
  { event: 'SessionEnd', timeout: SESSION_END_TIMEOUT_SECONDS },
  { event: 'Interrupt', timeout: SESSION_END_TIMEOUT_SECONDS },
];

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A command some turnback installation registered for Codex: `…/turnback-hook codex`, quoted or not, maybe with `--max-time N`. */
export function isTurnbackCodexCommand(command: unknown): boolean {
  return typeof command === 'string' && /(^|[/'\s])turnback-hook'?\s+codex(\s+--max-time\s+\d+)?$/.test(command.trim());
}

/** `command` is the installed `turnback-hook codex`, shell-quoted. */
function ourGroups(command: string): { event: string; group: Json }[] {
  return OUR_GROUPS.map(({ event, matcher, scan, timeout }) => ({
    event,
    group: {
      ...(matcher ? { matcher } : {}),
      hooks: [
        scan
          ? {
              type: 'command',
              command: `${command} --max-time ${SCAN_WAIT_SECONDS}`,
              timeout: SCAN_HOOK_TIMEOUT_SECONDS,
            }
          : { type: 'command', command, timeout: timeout ?? HOOK_TIMEOUT_SECONDS },
      ],
    },
  }));
}

const key = (event: string, matcher: unknown, hook: unknown) => JSON.stringify([event, matcher ?? null, hook]);

/** A copy of `existing` without any turnback hook, and turnback's entries that were there (sorted keys). */
function strip(existing: unknown): { settings: Json; found: string[] } {
  if (!isObject(existing)) throw new SettingsShapeError('the hooks file does not hold a JSON object');
  const settings: Json = structuredClone(existing);
  if (settings.hooks === undefined) return { settings, found: [] };
  if (!isObject(settings.hooks)) throw new SettingsShapeError('"hooks" is not an object');
  const hooks = settings.hooks;
  const found: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      if (OUR_GROUPS.some((group) => group.event === event))
        throw new SettingsShapeError(`"hooks.${event}" is not an array`);
      continue;
    }
    const kept = groups.filter((group) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return true;
      const all: unknown[] = group.hooks;
      const ours = all.filter((hook) => isObject(hook) && isTurnbackCodexCommand(hook.command));
      if (ours.length === 0) return true;
      // A group that holds other hooks too is not exactly ours: counted so that it is rewritten.
      for (const hook of ours)
        found.push(ours.length === all.length ? key(event, group.matcher, hook) : `shared ${event}`);
      group.hooks = all.filter((hook) => !ours.includes(hook));
      return ours.length < all.length;
    });
    if (kept.length === groups.length) continue;
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  return { settings, found: found.sort() };
}

/** Exactly turnback's groups, running `command` (the installed `turnback-hook codex`, shell-quoted), in `existing`. */
export function mergeCodexHooks(existing: unknown, command: string): JsonMerge {
  const { settings, found } = strip(existing);
  const wanted = ourGroups(command);
  const wantedKeys = wanted.map(({ event, group }) => key(event, group.matcher, (group.hooks as unknown[])[0])).sort();
  if (JSON.stringify(found) === JSON.stringify(wantedKeys))
    return { settings: structuredClone(existing) as Json, changed: false };
  if (settings.hooks === undefined) settings.hooks = {};
  const hooks = settings.hooks as Record<string, unknown[]>;
  for (const { event, group } of wanted) (hooks[event] ??= []).push(group);
  return { settings, changed: true };
}

/** `existing` without turnback's hooks (`init codex --remove`). */
export function removeCodexHooks(existing: unknown): JsonMerge {
  const { settings, found } = strip(existing);
  return { settings, changed: found.length > 0 };
}
