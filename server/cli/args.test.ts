import { describe, expect, it } from 'vitest';
import { DEFAULT_PORT, DEFAULT_SCOPES, parseServeFlags } from './args.js';
import { UsageError } from './usage.js';

describe('serve and demo flags', () => {
  it('reads every serve flag of the contract', () => {
    const flags = parseServeFlags(
      [
        '--workspace',
        'ws',
        '--data',
        'd',
        '--port',
        '0',
        '--token',
        't1',
        '--agent-token-file',
        'f2',
        '--scopes',
        'webui:*, onebot:group',
        '--max-file-size',
        '2048',
        '--keep-sessions',
        '0',
      ],
      'serve',
      {},
    );
    expect(flags).toEqual({
      workspace: 'ws',
      data: 'd',
      port: 0,
      portGiven: true,
      token: 't1',
      agentTokenFile: 'f2',
      tokensOnCommandLine: ['--token'],
      scopes: ['webui:*', 'onebot:group'],
      maxFileSize: 2048,
      keepSessions: 0,
      help: false,
    });
  });

  it('defaults the port to 4820 and the scopes to webui:* and claude-code:*', () => {
    const flags = parseServeFlags(['--workspace=ws'], 'serve', {});
    expect(flags.port).toBe(DEFAULT_PORT);
    expect(DEFAULT_PORT).toBe(4820);
    expect(flags.scopes).toEqual(DEFAULT_SCOPES);
    expect(DEFAULT_SCOPES).toEqual([
      'webui:*',
      'antigravity:*',
      'claude-code:*',
      'codex:*',
      'copilot:*',
      'cursor:*',
      'gemini:*',
      'opencode:*',
    ]);
    expect(flags.token).toBeUndefined();
  });

  it('takes the tokens from TURNBACK_TOKEN and TURNBACK_AGENT_TOKEN, flags first', () => {
    const env = { TURNBACK_TOKEN: 'from-env', TURNBACK_AGENT_TOKEN: 'agent-env' };
    expect(parseServeFlags(['--workspace', 'ws'], 'serve', env)).toMatchObject({
      token: 'from-env',
      agentToken: 'agent-env',
    });
    expect(parseServeFlags(['--workspace', 'ws', '--token', 'flag'], 'serve', env)).toMatchObject({ token: 'flag' });
    // A token file named on the command line comes before the environment.
    expect(parseServeFlags(['--token-file', 'f'], 'serve', env)).toMatchObject({
      token: undefined,
      tokenFile: 'f',
      agentToken: 'agent-env',
    });
    expect(parseServeFlags([], 'serve', env).tokensOnCommandLine).toEqual([]);
  });

  it('runs serve without --workspace (the service with no default workspace)', () => {
    expect(parseServeFlags([], 'serve', {})).toMatchObject({ workspace: undefined, port: 4820, portGiven: false });
  });

  it('lets --scopes "" disable capture', () => {
    expect(parseServeFlags(['--workspace', 'ws', '--scopes', ''], 'serve', {}).scopes).toEqual([]);
  });

  it.each([
    [['--workspace', 'ws', '--bogus']],
    [['--workspace', 'ws', 'extra']],
    [['--workspace', 'ws', '--port', '70000']],
    [['--workspace', 'ws', '--port', 'abc']],
    [['--workspace', 'ws', '--max-file-size', '0']],
    [['--workspace', 'ws', '--keep-sessions', '-1']],
    [['--workspace', 'ws', '--token', 'has space']],
    [['--workspace', 'ws', '--token', '']],
    [['--workspace']],
    [['--token', 'a'.repeat(30), '--token-file', 'f']],
  ])('refuses %j for serve', (args) => {
    expect(() => parseServeFlags(args, 'serve', {})).toThrow(UsageError);
  });

  it('gives demo its own flags only, with an optional workspace', () => {
    expect(parseServeFlags([], 'demo', {})).toMatchObject({ workspace: undefined, port: 4820 });
    expect(() => parseServeFlags(['--scopes', 'x'], 'demo', {})).toThrow(UsageError);
  });

  it('reads --protect globs relative to the workspace, refusing absolute ones', () => {
    expect(
      parseServeFlags(['--workspace', 'ws', '--protect', 'target', '--protect', '.venv'], 'serve', {}).protect,
    ).toEqual(['target', '.venv']);
    expect(() => parseServeFlags(['--workspace', 'ws', '--protect', '/abs/target'], 'serve', {})).toThrow(UsageError);
  });

  it('reads --store-budget as bytes, MiB or GiB, refusing anything else', () => {
    const budget = (raw: string) => parseServeFlags(['--store-budget', raw], 'serve', {}).storeBudget;
    expect(parseServeFlags([], 'serve', {}).storeBudget).toBeUndefined();
    expect(budget('1000000')).toBe(1_000_000);
    expect(budget('512MiB')).toBe(512 * 1024 ** 2);
    expect(budget('4GiB')).toBe(4 * 1024 ** 3);
    for (const bad of ['0', '-1', '1.5GiB', '4GB', 'lots', ''])
      expect(() => parseServeFlags(['--store-budget', bad], 'serve', {})).toThrow(UsageError);
  });

  it('reads --person-budget as --store-budget does; demo has none', () => {
    expect(parseServeFlags([], 'serve', {}).personBudget).toBeUndefined();
    expect(parseServeFlags(['--person-budget', '10GiB'], 'serve', {}).personBudget).toBe(10 * 1024 ** 3);
    expect(() => parseServeFlags(['--person-budget', '10GB'], 'serve', {})).toThrow(/--person-budget must be/);
    expect(() => parseServeFlags(['--person-budget', '1GiB'], 'demo', {})).toThrow(UsageError);
  });

  it('reads --help without needing --workspace', () => {
    expect(parseServeFlags(['--help'], 'serve', {}).help).toBe(true);
  });
});
