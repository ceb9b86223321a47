// `turnback init codex`: the hooks go into the project's `.codex/hooks.json`, or with --global
// into the person's `$CODEX_HOME/hooks.json` (`~/.codex/hooks.json` by default). Codex runs a new
// or changed hook only once the person trusted it in `/hooks`, and a project's `.codex/` folder
// only in a project they trusted: what init prints says so, since until then nothing is recorded
// (Codex skips an untrusted hook without a word).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { jsonSettings, type HostSettingsWriter } from '../core/settings-writer.js';
import { CODEX_HOST } from './event.js';
import { codexHome } from './home.js';
import { mergeCodexHooks, removeCodexHooks } from './hooks-file.js';

const PROJECT_HOOKS = join('.codex', 'hooks.json');
/** The person's own hooks file, as `init --global` names it. */
const userHooksFile = () => join(codexHome(process.env.HOME || homedir(), process.env), 'hooks.json');

export const codexSettingsWriter: HostSettingsWriter = {
  host: CODEX_HOST,
  settingsFile: ({ workspace, home, global }) =>
    global ? join(codexHome(home, process.env), 'hooks.json') : join(workspace, PROJECT_HOOKS),
  ...jsonSettings(mergeCodexHooks, removeCodexHooks),
  afterInstall: (file) => [
    'Codex runs these hooks only once you trust them: start `codex`, type /hooks, and trust the',
    'turnback hooks (Codex asks again whenever they change); until then nothing is recorded.',
    ...(file === userHooksFile()
      ? []
      : [
          "Codex reads a project's .codex/hooks.json only in a project you trust (it asks when it first starts there).",
        ]),
  ],
};
