// turnback's hook entries in a Claude Code settings object:
// {"hooks": {"<Event>": [{"matcher"?: "...", "hooks": [{"type": "command", "command": "...", "timeout"?: s}]}]}}.
// Every other key and hook is kept. Installing twice changes nothing; an entry of another
// installation path or an earlier version is replaced, never doubled; removing takes out
// every turnback entry and nothing else. The tools and events matched are event.ts's, which
// parses what these hooks send.
import { SettingsShapeError } from '../core/settings-writer.js';
import { COMMAND_TOOL_MATCHER, FILE_TOOL_MATCHER, SUBAGENT_EVENTS, TURN_END_EVENTS } from './event.js';

/**
 * How long a hook waits for a scan: Claude Code must not run a command before its before scan
 * is done, and the first one of a big tree takes seconds.
 */
const SCAN_WAIT_SECONDS = 120;
/** Claude Code's own limit for those hooks: a little longer, so the hook gives up (and logs) first. */
const SCAN_HOOK_TIMEOUT_SECONDS = SCAN_WAIT_SECONDS + 10;

interface OurGroup {
  event: string;
  matcher?: string;
  /** Waits for a scan (else the hook's 2 s). */
  scan: boolean;
}

const OUR_GROUPS: readonly OurGroup[] = [
  { event: 'UserPromptSubmit', scan: false },
  // The tools that change one named file: announced before they run (before-mutate).
  { event: 'PreToolUse', matcher: FILE_TOOL_MATCHER, scan: false },
  // The tools turnback cannot see into: scanned before and after (exec / exec-end).
  { event: 'PreToolUse', matcher: COMMAND_TOOL_MATCHER, scan: true },
  { event: 'PostToolUse', matcher: COMMAND_TOOL_MATCHER, scan: true },
  // A command that exits non-zero ends with this one instead of PostToolUse.
  { event: 'PostToolUseFailure', matcher: COMMAND_TOOL_MATCHER, scan: true },
  // A turn stays open while the subagents started in it run (in the background since 2.1.328).
  ...SUBAGENT_EVENTS.map((event) => ({ event, scan: false })),
  ...TURN_END_EVENTS.map((event) => ({ event, scan: false })),
];

type Json = Record<string, unknown>;

export { SettingsShapeError };

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A command some turnback installation registered: the sh entry (`…/bin/turnback-hook`,
 * quoted or not, maybe with `--max-time N`) or, from earlier versions, the Node one
 * (`node …/turnback.js hook claude-code`).
 */
export function isTurnbackHookCommand(command: unknown): boolean {
  if (typeof command !== 'string') return false;
  const trimmed = command.trim();
  if (/(^|[/'\s])turnback-hook'?(\s+--max-time\s+\d+)?$/.test(trimmed)) return true;
  return /turnback/.test(trimmed) && /\shook claude-code(\s+--max-time\s+\d+)?$/.test(trimmed);
}

/** The groups `command` (the installed hook, shell-quoted) is registered with. */
function ourGroups(command: string): { event: string; group: Json }[] {
  return OUR_GROUPS.map(({ event, matcher, scan }) => ({
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
          : { type: 'command', command },
      ],
    },
  }));
}

export interface MergeResult {
  settings: Json;
  changed: boolean;
}

interface Stripped {
  settings: Json;
  /** turnback's entries that were there, each as `event matcher hook` (JSON), sorted. */
  found: string[];
}

const key = (event: string, matcher: unknown, hook: unknown) => JSON.stringify([event, matcher ?? null, hook]);

/** A copy of `existing` without any turnback hook; a group or event left empty by that goes too. */
function strip(existing: unknown): Stripped {
  if (!isObject(existing)) throw new SettingsShapeError('the settings file does not hold a JSON object');
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
      const ours = all.filter((hook) => isObject(hook) && isTurnbackHookCommand(hook.command));
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
  return { settings, found: found.sort() };
}

/** Exactly turnback's groups, running `command`, in `existing`: unchanged when they are there already. */
export function mergeHookSettings(existing: unknown, command: string): MergeResult {
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

/** `existing` without turnback's hooks (`init --remove`). */
export function removeHookSettings(existing: unknown): MergeResult {
  const { settings, found } = strip(existing);
  return { settings, changed: found.length > 0 };
}

/** Quotes a word for the shell Claude Code runs hook commands with. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
