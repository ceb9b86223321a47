// turnback's hook entries in a Claude Code settings object:
// {"hooks": {"<Event>": [{"matcher"?: "...", "hooks": [{"type": "command", "command": "...", "timeout"?: s}]}]}}.
// Every other key and hook is kept. Installing twice changes nothing; an entry of another
// installation path or an earlier version is replaced, never doubled; removing takes out
// every turnback entry and nothing else. The tools and events matched are event.ts's, which
// parses what these hooks send.
import { hookGroupsEditor, type HookGroup } from '../core/hook-groups.js';
import { SettingsShapeError, type JsonMerge } from '../core/settings-writer.js';
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

export { SettingsShapeError };

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
function ourGroups(command: string): HookGroup[] {
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

export type MergeResult = JsonMerge;

const editor = hookGroupsEditor({
  isOurs: isTurnbackHookCommand,
  events: OUR_GROUPS.map((group) => group.event),
  fileName: 'the settings file',
});

/** Exactly turnback's groups, running `command`, in `existing`: unchanged when they are there already. */
export function mergeHookSettings(existing: unknown, command: string): MergeResult {
  return editor.merge(existing, ourGroups(command));
}

/** `existing` without turnback's hooks (`init --remove`). */
export function removeHookSettings(existing: unknown): MergeResult {
  return editor.remove(existing);
}

/** Quotes a word for the shell Claude Code runs hook commands with. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
