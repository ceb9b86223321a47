import { describe, expect, it } from 'vitest';
import { SettingsShapeError } from '../core/settings-writer.js';
import { isTurnbackCodexCommand, mergeCodexHooks, removeCodexHooks } from './hooks-file.js';

const HOOK = "'/opt/turn back/bin/turnback-hook' codex";
const theirs = { type: 'command', command: '/usr/local/bin/audit.sh', timeout: 5 };

describe('mergeCodexHooks', () => {
  it('adds every event turnback needs, timeouts in seconds, tools waiting for their scans', () => {
    const { settings: file, changed } = mergeCodexHooks({}, HOOK);
    expect(changed).toBe(true);
    const hooks = file.hooks as Record<string, any[]>;
    expect(Object.keys(hooks).sort()).toEqual([
      'Interrupt',
      'PostToolUse',
      'PreToolUse',
      'SessionEnd',
      'Stop',
      'SubagentStart',
      'SubagentStop',
      'UserPromptSubmit',
    ]);
    expect(hooks.PreToolUse).toEqual([
      { matcher: '*', hooks: [{ type: 'command', command: `${HOOK} --max-time 120`, timeout: 130 }] },
    ]);
    expect(hooks.UserPromptSubmit).toEqual([{ hooks: [{ type: 'command', command: HOOK, timeout: 10 }] }]);
    expect(hooks.SessionEnd[0].hooks[0].timeout).toBe(3);
  });

  it('keeps every other key and hook, and changes nothing the second time', () => {
    const existing = { version: 1, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [theirs] }], Custom: 'kept' } };
    const once = mergeCodexHooks(existing, HOOK);
    expect(once.settings.version).toBe(1);
    expect((once.settings.hooks as any).Custom).toBe('kept');
    expect((once.settings.hooks as any).PreToolUse[0]).toEqual({ matcher: 'Bash', hooks: [theirs] });
    const twice = mergeCodexHooks(once.settings, HOOK);
    expect(twice.changed).toBe(false);
    expect(twice.settings).toEqual(once.settings);
  });

  it('replaces the entries of another installation path, never doubling them', () => {
    const old = mergeCodexHooks({}, '/old/bin/turnback-hook codex').settings;
    const { settings: file, changed } = mergeCodexHooks(old, HOOK);
    expect(changed).toBe(true);
    expect(JSON.stringify(file)).not.toContain('/old/bin');
    expect((file.hooks as any).Stop).toHaveLength(1);
  });

  it('refuses a file of another shape, rather than lose it', () => {
    expect(() => mergeCodexHooks([], HOOK)).toThrow(SettingsShapeError);
    expect(() => mergeCodexHooks({ hooks: [] }, HOOK)).toThrow(SettingsShapeError);
    expect(() => mergeCodexHooks({ hooks: { Stop: {} } }, HOOK)).toThrow(SettingsShapeError);
  });
});

describe('removeCodexHooks', () => {
  it("takes out turnback's entries and nothing else", () => {
    const installed = mergeCodexHooks({ hooks: { Stop: [{ hooks: [theirs] }] } }, HOOK).settings;
    const { settings: file, changed } = removeCodexHooks(installed);
    expect(changed).toBe(true);
    expect(file).toEqual({ hooks: { Stop: [{ hooks: [theirs] }] } });
    expect(removeCodexHooks(file).changed).toBe(false);
  });

  it("leaves another host's turnback hook alone", () => {
    const claude = {
      hooks: { Stop: [{ hooks: [{ type: 'command', command: "'/opt/turn back/bin/turnback-hook'" }] }] },
    };
    expect(removeCodexHooks(claude).changed).toBe(false);
  });
});

describe('isTurnbackCodexCommand', () => {
  it('knows the codex hook, quoted or not, with or without --max-time', () => {
    expect(isTurnbackCodexCommand('/a/bin/turnback-hook codex')).toBe(true);
    expect(isTurnbackCodexCommand("'/a b/bin/turnback-hook' codex --max-time 120")).toBe(true);
    expect(isTurnbackCodexCommand('/a/bin/turnback-hook')).toBe(false);
    expect(isTurnbackCodexCommand('/a/bin/not-turnback-hook codex')).toBe(false);
    expect(isTurnbackCodexCommand(42)).toBe(false);
  });
});
