// `turnback init claude-code`: the hooks go into the project's `.claude/settings.local.json`
// (the person's own, not checked in), or with --global into `~/.claude/settings.json`.
import { join } from 'node:path';
import { jsonSettings, type HostSettingsWriter } from '../core/settings-writer.js';
import { CLAUDE_CODE_HOST } from './event.js';
import { mergeHookSettings, removeHookSettings } from './settings.js';

export const claudeCodeSettingsWriter: HostSettingsWriter = {
  host: CLAUDE_CODE_HOST,
  settingsFile: ({ workspace, home, global }) =>
    global ? join(home, '.claude', 'settings.json') : join(workspace, '.claude', 'settings.local.json'),
  ...jsonSettings(mergeHookSettings, removeHookSettings),
};
