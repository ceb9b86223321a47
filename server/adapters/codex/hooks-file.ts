// turnback's entries in a Codex hooks file (`<repo>/.codex/hooks.json` or `~/.codex/hooks.json`):
// {"hooks": {"<Event>": [{"matcher"?: "...", "hooks": [{"type": "command", "command": "...", "timeout": s}]}]}}.
// Every other key and hook is kept. Installing twice changes nothing; an entry of another
// installation path is replaced, never doubled; removing takes out every turnback entry and
// nothing else. Codex's timeouts are in seconds; it clamps SessionEnd's and Interrupt's to 3.
import { hookGroupsEditor, type HookGroup } from '../core/hook-groups.js';
import type { JsonMerge } from '../core/settings-writer.js';

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

/** A command some turnback installation registered for Codex: `…/turnback-hook codex`, quoted or not, maybe with `--max-time N`. */
export function isTurnbackCodexCommand(command: unknown): boolean {
  return typeof command === 'string' && /(^|[/'\s])turnback-hook'?\s+codex(\s+--max-time\s+\d+)?$/.test(command.trim());
}

/** `command` is the installed `turnback-hook codex`, shell-quoted. */
function ourGroups(command: string): HookGroup[] {
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

const editor = hookGroupsEditor({
  isOurs: isTurnbackCodexCommand,
  events: OUR_GROUPS.map((group) => group.event),
  fileName: 'the hooks file',
});

/** Exactly turnback's groups, running `command` (the installed `turnback-hook codex`, shell-quoted), in `existing`. */
export function mergeCodexHooks(existing: unknown, command: string): JsonMerge {
  return editor.merge(existing, ourGroups(command));
}

/** `existing` without turnback's hooks (`init codex --remove`). */
export function removeCodexHooks(existing: unknown): JsonMerge {
  return editor.remove(existing);
}
