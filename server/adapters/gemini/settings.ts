// turnback's hook entries in a Gemini CLI settings.json (`.gemini/settings.json` of a project,
// or `~/.gemini/settings.json`): {"hooks": {"<Event>": [{"matcher"?: regex, "hooks": [{"type":
// "command", "command": "...", "timeout"?: ms}]}]}}. Gemini tests a matcher as an unanchored
// regular expression on the tool's name, and its timeouts are in milliseconds. Every other key
// and hook is kept; installing twice changes nothing; an entry of another installation path is
// replaced, never doubled; removing takes out every turnback entry and nothing else.
import { join } from 'node:path';
import { hookGroupsEditor, type HookGroup } from '../core/hook-groups.js';
import { jsonSettings, type HostSettingsWriter, type JsonMerge } from '../core/settings-writer.js';
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

/** A command some turnback installation registered for Gemini: `…/turnback-hook gemini`, maybe with `--max-time N`. */
export function isTurnbackGeminiCommand(command: unknown): boolean {
  return (
    typeof command === 'string' && /(^|[/'\s])turnback-hook'?\s+gemini(\s+--max-time\s+\d+)?$/.test(command.trim())
  );
}

/** `hookCommand`: the hook by absolute path with its host, `…/turnback-hook gemini` (shell-quoted). */
function ourGroups(command: string): HookGroup[] {
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

export type MergeResult = JsonMerge;

const editor = hookGroupsEditor({
  isOurs: isTurnbackGeminiCommand,
  events: OUR_GROUPS.map((group) => group.event),
  fileName: 'the settings file',
  dropEmptyHooks: true,
});

/** Exactly turnback's groups, running `hookCommand` (shell-quoted), in `existing`: unchanged when they are there already. */
export function mergeGeminiSettings(existing: unknown, hookCommand: string): MergeResult {
  return editor.merge(existing, ourGroups(hookCommand));
}

/** `existing` without turnback's hooks (`init gemini --remove`). */
export function removeGeminiSettings(existing: unknown): MergeResult {
  return editor.remove(existing);
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
