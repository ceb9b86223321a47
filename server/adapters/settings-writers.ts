// The hosts `turnback init <host>` knows, each with its settings writer (core/settings-writer.ts).
import { antigravitySettingsWriter } from './antigravity/settings.js';
import { claudeCodeSettingsWriter } from './claude-code/settings-writer.js';
import { codexSettingsWriter } from './codex/settings-writer.js';
import { copilotSettingsWriter } from './copilot/settings.js';
import type { HostSettingsWriter } from './core/settings-writer.js';
import { cursorSettingsWriter } from './cursor/settings.js';
import { geminiSettingsWriter } from './gemini/settings.js';
import { opencodeSettingsWriter } from './opencode/plugin.js';

export const SETTINGS_WRITERS: readonly HostSettingsWriter[] = [
  antigravitySettingsWriter,
  claudeCodeSettingsWriter,
  codexSettingsWriter,
  copilotSettingsWriter,
  cursorSettingsWriter,
  geminiSettingsWriter,
  opencodeSettingsWriter,
];
