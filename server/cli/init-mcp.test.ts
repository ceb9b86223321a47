// `turnback init claude-code` offering the MCP server, as a process: the exact `claude mcp add`
// command by default; with --mcp, `mcpServers.turnback` in ~/.claude.json, every other key and
// the file's mode kept, twice the same, --remove taking only it out, a file it cannot read left as it is.
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../testkit/spawn.js';

const BIN = fileURLToPath(new URL('../../bin/turnback.js', import.meta.url));
let root: string;
let home: string;
let workspace: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'turnback-init-mcp-'));
  home = join(root, 'home');
  workspace = join(root, 'project');
  await mkdir(home);
  await mkdir(workspace);
  env = { XDG_STATE_HOME: join(root, 'state'), HOME: home };
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const claudeJson = () => join(home, '.claude.json');
const ENTRY = { type: 'stdio', command: BIN, args: ['mcp'], env: {} };

describe('turnback init claude-code and the MCP server', { timeout: 60_000 }, () => {
  it('prints the exact command to register it, and writes nothing of Claude Code’s own', async () => {
    const ran = await runCli(['init', 'claude-code', '--no-start', '--workspace', workspace], { env });
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain(`\n  claude mcp add -s user turnback -- ${BIN} mcp\n`);
    await expect(stat(claudeJson())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('with --mcp registers it in ~/.claude.json, keeping every other key and server and the mode; twice changes nothing; --remove takes only it out', async () => {
    const existing = {
      numStartups: 12,
      projects: {
        '/elsewhere': { mcpServers: { local: { type: 'stdio', command: 'x', args: [] } }, allowedTools: [] },
      },
      mcpServers: { other: { type: 'http', url: 'https://example.test/mcp' } },
      oauthAccount: { emailAddress: 'person@example.test' },
    };
    await writeFile(claudeJson(), JSON.stringify(existing), { mode: 0o600 });

    const first = await runCli(['init', 'claude-code', '--no-start', '--global', '--mcp'], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Registered the turnback MCP server in ${claudeJson()}`);
    const written = JSON.parse(await readFile(claudeJson(), 'utf8'));
    expect(written).toEqual({ ...existing, mcpServers: { ...existing.mcpServers, turnback: ENTRY } });
    expect((await stat(claudeJson())).mode & 0o777).toBe(0o600);

    const text = await readFile(claudeJson(), 'utf8');
    const second = await runCli(['init', 'claude-code', '--no-start', '--global', '--mcp'], { env });
    expect(second.stdout).toContain('The turnback MCP server is already registered');
    expect(await readFile(claudeJson(), 'utf8')).toBe(text);

    const removed = await runCli(['init', 'claude-code', '--no-start', '--global', '--remove', '--mcp'], { env });
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`Removed the turnback MCP server from ${claudeJson()}`);
    expect(JSON.parse(await readFile(claudeJson(), 'utf8'))).toEqual(existing);
  });

  it('creates ~/.claude.json (0600) when there is none', async () => {
    expect((await runCli(['init', 'claude-code', '--no-start', '--workspace', workspace, '--mcp'], { env })).code).toBe(
      0,
    );
    expect(JSON.parse(await readFile(claudeJson(), 'utf8'))).toEqual({ mcpServers: { turnback: ENTRY } });
    expect((await stat(claudeJson())).mode & 0o777).toBe(0o600);
  });

  it('leaves a ~/.claude.json it cannot read as JSON exactly as it is, prints the command instead, exit 2', async () => {
    await writeFile(claudeJson(), '{"numStartups": 3,');
    const ran = await runCli(['init', 'claude-code', '--no-start', '--workspace', workspace, '--mcp'], { env });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('it is not valid JSON');
    expect(ran.stderr).toContain(`claude mcp add -s user turnback -- ${BIN} mcp`);
    expect(await readFile(claudeJson(), 'utf8')).toBe('{"numStartups": 3,');
    await writeFile(claudeJson(), '{"mcpServers": []}');
    expect((await runCli(['init', 'claude-code', '--no-start', '--workspace', workspace, '--mcp'], { env })).code).toBe(
      2,
    );
    expect(await readFile(claudeJson(), 'utf8')).toBe('{"mcpServers": []}');
  });

  it('takes --mcp for Claude Code only', async () => {
    const ran = await runCli(['init', 'codex', '--no-start', '--workspace', workspace, '--mcp'], { env });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('usage: turnback init');
  });
});
