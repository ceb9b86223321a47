// turnback's entries in a Codex hooks file (`<repo>/.codex/hooks.json` or `~/.codex/hooks.json`):
// {"hooks": {"<Event>": [{"matcher"?: "...", "hooks": [{"type": "command", "command": "...", "timeout": s}]}]}}.
// Every other key and hook is kept. Installing twice changes nothing; an entry of another
// installation path is replaced, never doubled; removing takes out every turnback entry and
// nothing else. Codex's timeouts are in seconds; it clamps SessionEnd's and Interrupt's to 3.

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

export class HooksFileShapeError extends Error {
  readonly code = 'BAD_SETTINGS';
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A command some turnback installation registered for Codex: `…/turnback-hook codex`, quoted or not, maybe with `--max-time N`. */
export function isTurnbackCodexCommand(command: unknown): boolean {
  return typeof command === 'string' && /(^|[/'\s])turnback-hook'?\s+codex(\s+--max-time\s+\d+)?$/.test(command.trim());
}

function ourGroups(hook: string): { event: string; group: Json }[] {
  return OUR_GROUPS.map(({ event, matcher, scan, timeout }) => ({
    event,
    group: {
      ...(matcher ? { matcher } : {}),
      hooks: [scan
        ? { type: 'command', command: `${hook} codex --max-time ${SCAN_WAIT_SECONDS}`, timeout: SCAN_HOOK_TIMEOUT_SECONDS }
        : { type: 'command', command: `${hook} codex`, timeout: timeout ?? HOOK_TIMEOUT_SECONDS }],
    },
  }));
}

export interface MergeResult {
  file: Json;
  changed: boolean;
}

const key = (event: string, matcher: unknown, hook: unknown) => JSON.stringify([event, matcher ?? null, hook]);

/** A copy of `existing` without any turnback hook, and turnback's entries that were there (sorted keys). */
function strip(existing: unknown): { file: Json; found: string[] } {
  if (!isObject(existing)) throw new HooksFileShapeError('the hooks file does not hold a JSON object');
  const file: Json = structuredClone(existing);
  if (file.hooks === undefined) return { file, found: [] };
  if (!isObject(file.hooks)) throw new HooksFileShapeError('"hooks" is not an object');
  const hooks = file.hooks;
  const found: string[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      if (OUR_GROUPS.some((group) => group.event === event)) throw new HooksFileShapeError(`"hooks.${event}" is not an array`);
      continue;
    }
    const kept = groups.filter((group) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return true;
      const all: unknown[] = group.hooks;
      const ours = all.filter((hook) => isObject(hook) && isTurnbackCodexCommand(hook.command));
      if (ours.length === 0) return true;
      // A group that holds other hooks too is not exactly ours: counted so that it is rewritten.
      for (const hook of ours) found.push(ours.length === all.length ? key(event, group.matcher, hook) : `shared ${event}`);
      group.hooks = all.filter((hook) => !ours.includes(hook));
      return ours.length < all.length;
    });
    if (kept.length === groups.length) continue;
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  return { file, found: found.sort() };
}

/** Exactly turnback's groups, running `hook` (the installed turnback-hook, shell-quoted), in `existing`. */
export function mergeCodexHooks(existing: unknown, hook: string): MergeResult {
  const { file, found } = strip(existing);
  const wanted = ourGroups(hook);
  const wantedKeys = wanted.map(({ event, group }) => key(event, group.matcher, (group.hooks as unknown[])[0])).sort();
  if (JSON.stringify(found) === JSON.stringify(wantedKeys)) return { file: structuredClone(existing) as Json, changed: false };
  if (file.hooks === undefined) file.hooks = {};
  const hooks = file.hooks as Record<string, unknown[]>;
  for (const { event, group } of wanted) (hooks[event] ??= []).push(group);
  return { file, changed: true };
}

/** `existing` without turnback's hooks (`init codex --remove`). */
export function removeCodexHooks(existing: unknown): MergeResult {
  const { file, found } = strip(existing);
  return { file, changed: found.length > 0 };
}
