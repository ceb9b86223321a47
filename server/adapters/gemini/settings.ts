// turnback's hook entries in a Gemini CLI settings.json (`.gemini/settings.json` of a project,
// or `~/.gemini/settings.json`): {"hooks": {"<Event>": [{"matcher"?: regex, "hooks": [{"type":
// "command", "command": "...", "timeout"?: ms}]}]}}. Gemini tests a matcher as an unanchored
// regular expression on the tool's name, and its timeouts are in milliseconds. Every other key
// and hook is kept; installing twice changes nothing; an entry of another installation path is
// replaced, never doubled; removing takes out every turnback entry and nothing else.
import { join } from 'node:path';
import { jsonSettings, SettingsShapeError, type HostSettingsWriter } from '../core/settings-writer.js';
import { FILE_TOOLS, GEMINI_HOST, READ_ONLY_TOOLS } from './event.js';

/** How long a hook waits for a scan: Gemini must not run a command before its before scan is done. */
const SCAN_WAIT_SECONDS = 120;
/** Gemini's own limit for those hooks, in ms: a little longer, so the hook gives up (and logs) first. */
const SCAN_HOOK_TIMEOUT_MS = (SCAN_WAIT_SECONDS + 10) * 1000;
/** The other hooks answer within the hook's 2 s. */
const HOOK_TIMEOUT_MS = 10_000;

const FILE_TOOL_MATCHER = `^(${FILE_TOOLS.join('|')})$`;
/** Every tool but the file tools and those that change nothing: shell, MCP (`mcp_*`) and unknown ones are scanned. */
const SCANNED_TOOL_MATCHER = `^(?!(${[...FILE_TOOLS, ...READ_ONLY_TOOLS].join('|')})$)`;

interface OurGroup {
  event: string;
  matcher?: string;
  scan: boolean;
}

const OUR_GROUPS: readonly OurGroup[] = [
  { event: 'BeforeAgent', scan: false },
  { event: 'BeforeTool', matcher: FILE_TOOL_MATCHER, scan: false },
  { event: 'BeforeTool', matcher: SCANNED_TOOL_MATCHER, scan: true },
  // A failed tool ends with AfterTool too (tool_response.error).
  { event: 'AfterTool', matcher: SCANNED_TOOL_MATCHER, scan: true },
  { event: 'AfterAgent', scan: false },
  { event: 'SessionEnd', scan: false },
];

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A command some turnback installation registered for Gemini: `…/turnback-hook gemini`, maybe with `--max-time N`. */
export function isTurnbackGeminiCommand(command: unknown): boolean {
  return (
    typeof command === 'string' && /(^|[/'\s])turnback-hook'?\s+gemini(\s+--max-time\s+\d+)?$/.test(command.trim())
  );
}

/** `hookCommand`: the hook by absolute path with its host, `…/turnback-hook gemini` (shell-quoted). */
function ourGroups(command: string): { event: string; group: Json }[] {
  return OUR_GROUPS.map(({ event, matcher, scan }) => ({
    event,
    group: {
      ...(matcher ? { matcher } : {}),
      hooks: [
        scan
          ? { type: 'command', command: `${command} --max-time ${SCAN_WAIT_SECONDS}`, timeout: SCAN_HOOK_TIMEOUT_MS }
          : { type: 'command', command, timeout: HOOK_TIMEOUT_MS },
      ],
    },
  }));
}

export interface MergeResult {
  settings: Json;
  changed: boolean;
}

const key = (event: string, matcher: unknown, hook: unknown) => JSON.stringify([event, matcher ?? null, hook]);

/** A copy of `existing` without any turnback hook, and the entries it had (sorted keys); emptied groups and events go. */
function strip(existing: unknown): { settings: Json; found: string[] } {
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
      const ours = all.filter((hook) => isObject(hook) && isTurnbackGeminiCommand(hook.command));
      if (ours.length === 0) return true;
      const alone = ours.length === all.length;
      for (const hook of ours) found.push(alone ? key(event, group.matcher, hook) : `shared ${event}`);
      group.hooks = all.filter((hook) => !ours.includes(hook));
      return ours.length < all.length;
    });
    if (kept.length === groups.length) continue;
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  // A "hooks" that held turnback's alone goes with them.
  if (found.length > 0 && Object.keys(hooks).length === 0) delete settings.hooks;
  return { settings, found: found.sort() };
}

/** Exactly turnback's groups, running `hookCommand` (shell-quoted), in `existing`: unchanged when they are there already. */
export function mergeGeminiSettings(existing: unknown, hookCommand: string): MergeResult {
  const { settings, found } = strip(existing);
  const wanted = ourGroups(hookCommand);
  const wantedKeys = wanted.map(({ event, group }) => key(event, group.matcher, (group.hooks as unknown[])[0])).sort();
  if (JSON.stringify(found) === JSON.stringify(wantedKeys))
    return { settings: structuredClone(existing) as Json, changed: false };
  if (settings.hooks === undefined) settings.hooks = {};
  const hooks = settings.hooks as Record<string, unknown[]>;
  for (const { event, group } of wanted) (hooks[event] ??= []).push(group);
  return { settings, changed: true };
}

/** `existing` without turnback's hooks (`init gemini --remove`). */
export function removeGeminiSettings(existing: unknown): MergeResult {
  const { settings, found } = strip(existing);
  return { settings, changed: found.length > 0 };
}

/** `turnback init gemini`: the project's `.gemini/settings.json`, or with --global the person's (`$GEMINI_CLI_HOME/.gemini/` when set). */
export const geminiSettingsWriter: HostSettingsWriter = {
  host: GEMINI_HOST,
  settingsFile: ({ workspace, home, global }) => {
    const geminiHome = process.env.GEMINI_CLI_HOME?.startsWith('/') ? process.env.GEMINI_CLI_HOME : home;
    return global ? join(geminiHome, '.gemini', 'settings.json') : join(workspace, '.gemini', 'settings.json');
  },
  ...jsonSettings(mergeGeminiSettings, removeGeminiSettings),
  afterInstall: () => [
    "Gemini CLI runs a project's hooks only in a trusted folder, and warns once when a project's hooks are new or changed: that warning names turnback-hook.",
  ],
};
