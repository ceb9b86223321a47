// `turnback init copilot`: turnback's hooks in a hooks file of its own, `.github/hooks/turnback.json`
// in the project, or with --global `$COPILOT_HOME/hooks/turnback.json` (`~/.copilot/hooks/`),
// which Copilot CLI 1.0.102 loads beside the project's: {"version": 1, "hooks": {"<event>":
// [{"type": "command", "bash": "...", "timeoutSec": s}]}}. Copilot reads every `*.json` there, so
// the person's other hooks files are never touched; in this one every other key and hook is kept,
// installing twice changes nothing, and removing takes out turnback's entries alone (the file goes
// when nothing else was in it).
import { join } from 'node:path';
import { jsonSettings, type HostSettingsWriter, type JsonMerge } from '../core/settings-writer.js';
import { mergeOurHooks, stripOurHooks, type VersionedHooksFile } from '../core/versioned-hooks-file.js';
import { COPILOT_EVENTS, COPILOT_HOST, COPILOT_SCAN_EVENTS } from './event.js';
import { copilotHome } from './home.js';

/** How long a tool's hook waits for a scan: the tool must not run before its before scan is done. */
const SCAN_WAIT_SECONDS = 120;
/** Copilot's own limit for those hooks: a little longer, so the hook gives up (and logs) first. */
const SCAN_HOOK_TIMEOUT_SECONDS = SCAN_WAIT_SECONDS + 10;
/** The hook's own wait for any other event (it gives up after 2 s), with room to start. */
const HOOK_TIMEOUT_SECONDS = 10;
export const HOOKS_FILE = 'turnback.json';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A command some turnback installation registered for Copilot: `…/turnback-hook copilot [--max-time N]`. */
export function isTurnbackCopilotCommand(command: unknown): boolean {
  return (
    typeof command === 'string' && /(^|[/'\s])turnback-hook'?\s+copilot(\s+--max-time\s+\d+)?$/.test(command.trim())
  );
}

const ourEntry = (event: string, command: string): Json =>
  COPILOT_SCAN_EVENTS.has(event)
    ? { type: 'command', bash: `${command} --max-time ${SCAN_WAIT_SECONDS}`, timeoutSec: SCAN_HOOK_TIMEOUT_SECONDS }
    : { type: 'command', bash: command, timeoutSec: HOOK_TIMEOUT_SECONDS };

const COPILOT_FILE: VersionedHooksFile = {
  events: COPILOT_EVENTS,
  ourEntry,
  isOurs: (entry) => isTurnbackCopilotCommand(entry.bash),
};

export function mergeCopilotHooks(existing: unknown, command: string): JsonMerge {
  return mergeOurHooks(existing, command, COPILOT_FILE);
}

export function removeCopilotHooks(existing: unknown): JsonMerge {
  const { settings, found } = stripOurHooks(existing, COPILOT_FILE);
  // Nothing but the version init wrote is left: the file is turnback's alone, so it goes.
  const { version, hooks, ...rest } = settings;
  const empty = Object.keys(rest).length === 0 && (!isObject(hooks) || Object.keys(hooks).length === 0);
  return { settings: empty && version === 1 ? {} : settings, changed: found.length > 0 };
}

export const copilotSettingsWriter: HostSettingsWriter = {
  host: COPILOT_HOST,
  settingsFile: ({ workspace, home, global }) =>
    global
      ? join(copilotHome(home, process.env), 'hooks', HOOKS_FILE)
      : join(workspace, '.github', 'hooks', HOOKS_FILE),
  ...jsonSettings(mergeCopilotHooks, removeCopilotHooks),
  afterInstall: (file) =>
    file.includes(`${join('.github', 'hooks')}`)
      ? [
          "Copilot CLI runs a project's .github/hooks only in a folder you trust (it asks when it first starts there,",
          'or `copilot --trust-folder`); until then nothing is recorded. `init copilot --global` needs no trust.',
        ]
      : ['Copilot CLI picks the hooks up when it next starts.'],
};
