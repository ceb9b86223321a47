import { describe, expect, it } from 'vitest';
import { COMMAND_TOOL_MATCHER, FILE_TOOL_MATCHER } from './event.js';
import {
  isTurnbackHookCommand,
  mergeHookSettings,
  removeHookSettings,
  SettingsShapeError,
  shellQuote,
} from './settings.js';

const command = "'/opt/my tools/turnback/bin/turnback-hook'";
const nodeCommand = "/usr/bin/node '/opt/my tools/turnback/bin/turnback.js' hook claude-code";
type Groups = Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
const commandsOf = (settings: Record<string, unknown>, event: string) =>
  (settings.hooks as Groups)[event].flatMap((g) => g.hooks.map((h) => h.command));
const scan = `${command} --max-time 120`;
const EVENTS = [
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'StopFailure',
  'SessionEnd',
];
/** The commands turnback registers for each event: scans wait longer than the rest. */
const OURS: Record<string, string[]> = {
  UserPromptSubmit: [command],
  PreToolUse: [command, scan],
  PostToolUse: [scan],
  PostToolUseFailure: [scan],
  Stop: [command],
  StopFailure: [command],
  SessionEnd: [command],
};

describe('mergeHookSettings', () => {
  it('adds the hooks to empty settings: prompt, file tools, commands before and after, subagents, the three turn ends', () => {
    const { settings, changed } = mergeHookSettings({}, command);
    expect(changed).toBe(true);
    const hook = [{ type: 'command', command }];
    // Claude Code must not run a command before its before scan is done: those hooks wait longer.
    const scanHook = [{ type: 'command', command: scan, timeout: 130 }];
    expect(settings).toEqual({
      hooks: {
        UserPromptSubmit: [{ hooks: hook }],
        PreToolUse: [
          { matcher: FILE_TOOL_MATCHER, hooks: hook },
          { matcher: COMMAND_TOOL_MATCHER, hooks: scanHook },
        ],
        PostToolUse: [{ matcher: COMMAND_TOOL_MATCHER, hooks: scanHook }],
        PostToolUseFailure: [{ matcher: COMMAND_TOOL_MATCHER, hooks: scanHook }],
        SubagentStart: [{ hooks: hook }],
        SubagentStop: [{ hooks: hook }],
        Stop: [{ hooks: hook }],
        StopFailure: [{ hooks: hook }],
        SessionEnd: [{ hooks: hook }],
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
      { matcher: FILE_TOOL_MATCHER, hooks: [{ type: 'command', command }] },
      { matcher: COMMAND_TOOL_MATCHER, hooks: [{ type: 'command', command: scan, timeout: 130 }] },
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
    for (const event of EVENTS) expect(commandsOf(settings, event)).toEqual(OURS[event]);
  });

  it('replaces the Node hook command of earlier versions, and adds nothing on the next run', () => {
    const old = mergeHookSettings({}, nodeCommand).settings;
    const upgraded = mergeHookSettings(old, command);
    expect(upgraded.changed).toBe(true);
    for (const event of EVENTS) expect(commandsOf(upgraded.settings, event)).toEqual(OURS[event]);
    expect(mergeHookSettings(upgraded.settings, command)).toEqual({ settings: upgraded.settings, changed: false });
  });

  it('keeps one turnback hook per event when several versions were registered, and every other hook', () => {
    const existing = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: nodeCommand },
              { type: 'command', command: 'say done' },
            ],
          },
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

describe('removeHookSettings', () => {
  it('takes out every turnback hook and the groups and events it leaves empty, nothing else', () => {
    const existing = {
      model: 'opus',
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo guard' }] }],
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'say done' },
              { type: 'command', command: nodeCommand },
            ],
          },
        ],
        Notification: [{ hooks: [{ type: 'command', command: 'notify-send hi' }] }],
      },
    };
    const installed = mergeHookSettings(existing, command).settings;
    const { settings, changed } = removeHookSettings(installed);
    expect(changed).toBe(true);
    expect(settings).toEqual({
      model: 'opus',
      hooks: {
        PreToolUse: existing.hooks.PreToolUse,
        Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
        Notification: existing.hooks.Notification,
      },
    });
    expect(removeHookSettings(settings)).toEqual({ settings, changed: false });
  });

  it('rewrites a turnback hook sharing a group with another hook into a group of its own', () => {
    const installed = mergeHookSettings({}, command).settings as { hooks: Groups };
    installed.hooks.Stop[0].hooks.push({ command: 'say done' });
    const { settings, changed } = mergeHookSettings(installed, command);
    expect(changed).toBe(true);
    expect((settings.hooks as Groups).Stop).toEqual([
      { hooks: [{ command: 'say done' }] },
      { hooks: [{ type: 'command', command }] },
    ]);
  });
});

describe('isTurnbackHookCommand', () => {
  it('knows the sh entry and the Node entry of any installation, and nothing else', () => {
    for (const ours of [
      command,
      scan,
      '/opt/turnback/bin/turnback-hook',
      nodeCommand,
      'node bin/turnback.js hook claude-code',
      `${nodeCommand} --max-time 120`,
    ]) {
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
