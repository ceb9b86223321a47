import { describe, expect, it } from 'vitest';
import { isTurnbackGeminiCommand, mergeGeminiSettings, removeGeminiSettings } from './settings.js';

const HOOK = "'/opt/turn back/bin/turnback-hook'";
/** What init hands the merge: the hook by absolute path, with its host. */
const COMMAND = `${HOOK} gemini`;

describe('turnback hooks in a Gemini CLI settings.json', () => {
  const existing = {
    security: { auth: { selectedType: 'gemini-api-key' } },
    hooks: {
      BeforeTool: [
        { matcher: 'run_shell_command', hooks: [{ type: 'command', command: 'echo check', timeout: 5000 }] },
      ],
      SessionStart: [{ hooks: [{ type: 'command', command: 'echo start' }] }],
    },
  };

  it('adds its groups with timeouts in milliseconds, keeping every other key and hook, once', () => {
    const { settings, changed } = mergeGeminiSettings(existing, COMMAND);
    expect(changed).toBe(true);
    const hooks = settings.hooks as Record<
      string,
      { matcher?: string; hooks: { command: string; timeout: number }[] }[]
    >;
    expect(settings.security).toEqual(existing.security);
    expect(hooks.SessionStart).toEqual(existing.hooks.SessionStart);
    expect(hooks.BeforeTool[0]).toEqual(existing.hooks.BeforeTool[0]);
    expect(Object.keys(hooks).sort()).toEqual([
      'AfterAgent',
      'AfterTool',
      'BeforeAgent',
      'BeforeTool',
      'SessionEnd',
      'SessionStart',
    ]);
    const scan = hooks.BeforeTool[2];
    expect(scan.hooks[0]).toEqual({ type: 'command', command: `${HOOK} gemini --max-time 120`, timeout: 130_000 });
    expect(hooks.BeforeAgent[0].hooks[0].timeout).toBe(10_000);
    // Gemini tests a matcher as a regular expression on the tool's name.
    const fileMatcher = new RegExp(hooks.BeforeTool[1].matcher!);
    const scanMatcher = new RegExp(scan.matcher!);
    expect(['write_file', 'replace'].every((tool) => fileMatcher.test(tool))).toBe(true);
    expect(fileMatcher.test('run_shell_command')).toBe(false);
    expect(['run_shell_command', 'mcp_files_write', 'some_new_tool'].every((tool) => scanMatcher.test(tool))).toBe(
      true,
    );
    expect(['write_file', 'replace', 'read_file', 'glob'].some((tool) => scanMatcher.test(tool))).toBe(false);

    expect(mergeGeminiSettings(settings, COMMAND).changed).toBe(false);
    const moved = mergeGeminiSettings(settings, '/elsewhere/bin/turnback-hook gemini');
    expect(moved.changed).toBe(true);
    expect(JSON.stringify(moved.settings)).not.toContain('turn back');
    expect((moved.settings.hooks as Record<string, unknown[]>).BeforeTool).toHaveLength(3);
  });

  it('removes only its own entries', () => {
    const { settings } = mergeGeminiSettings(existing, COMMAND);
    const removed = removeGeminiSettings(settings);
    expect(removed.changed).toBe(true);
    expect(removed.settings).toEqual(existing);
    expect(removeGeminiSettings(existing).changed).toBe(false);
  });

  it('recognises its commands only', () => {
    expect(isTurnbackGeminiCommand(`${HOOK} gemini`)).toBe(true);
    expect(isTurnbackGeminiCommand('/x/bin/turnback-hook gemini --max-time 120')).toBe(true);
    expect(isTurnbackGeminiCommand('/x/bin/turnback-hook')).toBe(false);
    expect(isTurnbackGeminiCommand('echo turnback-hook gemini-ish')).toBe(false);
  });

  it('refuses settings of another shape', () => {
    expect(() => mergeGeminiSettings([], COMMAND)).toThrow(/JSON object/);
    expect(() => mergeGeminiSettings({ hooks: [] }, COMMAND)).toThrow(/"hooks"/);
    expect(() => mergeGeminiSettings({ hooks: { BeforeTool: {} } }, COMMAND)).toThrow(/BeforeTool/);
  });
});
