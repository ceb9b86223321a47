import { describe, expect, it } from 'vitest';
import { mergeHookSettings, SettingsShapeError, shellQuote, TOOL_MATCHER } from './settings.js';

const command = "/usr/bin/node '/opt/my tools/turnback/bin/turnback.js' hook claude-code";

describe('mergeHookSettings', () => {
  it('adds the three hooks to empty settings', () => {
    const { settings, changed } = mergeHookSettings({}, command);
    expect(changed).toBe(true);
    const hook = [{ type: 'command', command }];
    expect(settings).toEqual({
      hooks: {
        UserPromptSubmit: [{ hooks: hook }],
        PreToolUse: [{ matcher: TOOL_MATCHER, hooks: hook }],
        Stop: [{ hooks: hook }],
      },
    });
  });

  it('keeps every existing key and hook, and adds nothing the second time', () => {
    const existing = {
      permissions: { allow: ['Bash(npm test)'] },
      model: 'opus',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo guard' }] }],
        Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }],
      },
    };
    const first = mergeHookSettings(existing, command);
    expect(first.settings.permissions).toEqual(existing.permissions);
    expect(first.settings.model).toBe('opus');
    const hooks = first.settings.hooks as Record<string, unknown[]>;
    expect(hooks.Notification).toEqual(existing.hooks.Notification);
    expect(hooks.PreToolUse).toEqual([
      existing.hooks.PreToolUse[0],
      { matcher: TOOL_MATCHER, hooks: [{ type: 'command', command }] },
    ]);
    expect(existing.hooks.PreToolUse).toHaveLength(1);

    const second = mergeHookSettings(first.settings, command);
    expect(second.changed).toBe(false);
    expect(second.settings).toEqual(first.settings);
  });

  it('points an older installation path at this one instead of adding a second hook', () => {
    const old = mergeHookSettings({}, '/usr/bin/node /old/turnback/bin/turnback.js hook claude-code').settings;
    const { settings, changed } = mergeHookSettings(old, command);
    expect(changed).toBe(true);
    const hooks = settings.hooks as Record<string, { hooks: { command: string }[] }[]>;
    for (const event of ['UserPromptSubmit', 'PreToolUse', 'Stop']) {
      expect(hooks[event].flatMap((g) => g.hooks.map((h) => h.command))).toEqual([command]);
    }
  });

  it('refuses settings it cannot merge into without losing anything', () => {
    expect(() => mergeHookSettings([], command)).toThrow(SettingsShapeError);
    expect(() => mergeHookSettings({ hooks: [] }, command)).toThrow(SettingsShapeError);
    expect(() => mergeHookSettings({ hooks: { Stop: {} } }, command)).toThrow(SettingsShapeError);
  });
});

describe('shellQuote', () => {
  it('leaves plain paths alone and quotes the rest', () => {
    expect(shellQuote('/usr/bin/node')).toBe('/usr/bin/node');
    expect(shellQuote("/a b/it's")).toBe(`'/a b/it'\\''s'`);
  });
});
