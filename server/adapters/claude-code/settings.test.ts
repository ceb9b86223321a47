import { describe, expect, it } from 'vitest';
import { isTurnbackHookCommand, mergeHookSettings, SettingsShapeError, shellQuote, TOOL_MATCHER } from './settings.js';

const command = "'/opt/my tools/turnback/bin/turnback-hook'";
const nodeCommand = "/usr/bin/node '/opt/my tools/turnback/bin/turnback.js' hook claude-code";
type Groups = Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
const commandsOf = (settings: Record<string, unknown>, event: string) =>
  (settings.hooks as Groups)[event].flatMap((g) => g.hooks.map((h) => h.command));

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
    const old = mergeHookSettings({}, '/old/turnback/bin/turnback-hook').settings;
    const { settings, changed } = mergeHookSettings(old, command);
    expect(changed).toBe(true);
    for (const event of ['UserPromptSubmit', 'PreToolUse', 'Stop']) expect(commandsOf(settings, event)).toEqual([command]);
  });

  it('replaces the Node hook command of earlier versions, and adds nothing on the next run', () => {
    const old = mergeHookSettings({}, nodeCommand).settings;
    const upgraded = mergeHookSettings(old, command);
    expect(upgraded.changed).toBe(true);
    for (const event of ['UserPromptSubmit', 'PreToolUse', 'Stop']) expect(commandsOf(upgraded.settings, event)).toEqual([command]);
    expect(mergeHookSettings(upgraded.settings, command)).toEqual({ settings: upgraded.settings, changed: false });
  });

  it('keeps one turnback hook per event when several versions were registered, and every other hook', () => {
    const existing = {
      hooks: {
        Stop: [
          { hooks: [{ type: 'command', command: nodeCommand }, { type: 'command', command: 'say done' }] },
          { hooks: [{ type: 'command', command }] },
          { hooks: [{ type: 'command', command: '/elsewhere/turnback-hook' }] },
        ],
      },
    };
    const { settings, changed } = mergeHookSettings(existing, command);
    expect(changed).toBe(true);
    expect((settings.hooks as Groups).Stop).toEqual([
      { hooks: [{ type: 'command', command: 'say done' }] },
      { hooks: [{ type: 'command', command }] },
    ]);
  });

  it('refuses settings it cannot merge into without losing anything', () => {
    expect(() => mergeHookSettings([], command)).toThrow(SettingsShapeError);
    expect(() => mergeHookSettings({ hooks: [] }, command)).toThrow(SettingsShapeError);
    expect(() => mergeHookSettings({ hooks: { Stop: {} } }, command)).toThrow(SettingsShapeError);
  });
});

describe('isTurnbackHookCommand', () => {
  it('knows the sh entry and the Node entry of any installation, and nothing else', () => {
    for (const ours of [command, '/opt/turnback/bin/turnback-hook', nodeCommand, 'node bin/turnback.js hook claude-code']) {
      expect(isTurnbackHookCommand(ours)).toBe(true);
    }
    for (const theirs of ['echo turnback-hook-done > /tmp/x', '/usr/bin/my-turnback-hook', 'say done', 42]) {
      expect(isTurnbackHookCommand(theirs)).toBe(false);
    }
  });
});

describe('shellQuote', () => {
  it('leaves plain paths alone and quotes the rest', () => {
    expect(shellQuote('/usr/bin/node')).toBe('/usr/bin/node');
    expect(shellQuote("/a b/it's")).toBe(`'/a b/it'\\''s'`);
  });
});
