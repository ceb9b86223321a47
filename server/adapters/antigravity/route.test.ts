// Antigravity's events through POST /api/agent/hook/antigravity, from its documented payloads: a
// turn per prompt (its first model call), its file tools recorded before they run, its shell
// (rm, mv, an in-place edit), MCP and failing tools scanned around, each turn rolled back exactly.
import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest, Turn } from '../../protocol.js';
import { startHookTestServer, type HookTestServer } from '../claude-code/test/server.js';
import { treeAsText } from '../../testkit/tree.js';
import { ANTIGRAVITY_PROMPT } from './event.js';
import * as p from './test/payloads.js';

let t: HookTestServer;
let c: p.AgyContext;
beforeEach(async () => {
  t = await startHookTestServer({
    files: {
      'src/app.ts': 'export const answer = 41;\n',
      'src/util.ts': 'export const mode = "debug";\n',
      'notes.md': '# Notes\n',
      'old.txt': 'old\n',
      'run.sh': '#!/bin/sh\necho run\n',
    },
  });
  await chmod(join(t.workspace, 'run.sh'), 0o755);
  c = { root: t.workspace };
});
afterEach(async () => {
  await t.close();
});

const agy = async (event: unknown) => (await t.postHostHook('antigravity', event)).json;
const turns = async () =>
  (await t.api<{ turns: Turn[] }>('GET', `/api/sessions/${p.CONVERSATION_ID}/turns`)).json.turns;
const files = async (turnId: string) =>
  (await t.api<Manifest>('GET', `/api/turns/${turnId}`)).json.files.map((f) => [f.change, f.uri]).sort();

describe('POST /api/agent/hook/antigravity', () => {
  it('records three turns (file tools; rm, mv and sed -i in run_command; an MCP tool and a failing tool) and rolls each back exactly, newest first', async () => {
    const trees = [await treeAsText(t.workspace)];

    // Turn 1: write_to_file and replace_file_content, and a later model call of the same prompt.
    expect(await agy(p.preInvocation(c, 0))).toMatchObject({ ok: true, outcome: 'forwarded' });
    await agy(p.preToolUse(c, 'write_to_file', { TargetFile: join(t.workspace, 'src/helper.ts') }, 1));
    await writeFile(join(t.workspace, 'src', 'helper.ts'), 'export const shout = 1;\n');
    expect(await agy(p.postToolUse(c, 1))).toMatchObject({ ok: true, outcome: 'ignored' });
    expect(await agy(p.preInvocation(c, 1))).toMatchObject({ ok: true, outcome: 'ignored' });
    await agy(p.preToolUse(c, 'replace_file_content', { TargetFile: '"src/app.ts"' }, 3));
    await writeFile(join(t.workspace, 'src', 'app.ts'), 'export const answer = 42;\n');
    await agy(p.postToolUse(c, 3));
    await agy(p.stop(c));
    trees.push(await treeAsText(t.workspace));

    // Turn 2: the shell (agy's stepIdx counts on through the conversation).
    await agy(p.preInvocation(c, 0));
    await agy(p.preToolUse(c, 'run_command', { CommandLine: "sed -i 's/debug/release/' src/util.ts" }, 11));
    await writeFile(join(t.workspace, 'src', 'util.ts'), 'export const mode = "release";\n');
    expect(await agy(p.postToolUse(c, 11))).toEqual({ ok: true, outcome: 'forwarded', calls: 1 });
    await agy(p.preToolUse(c, 'run_command', { CommandLine: 'rm old.txt && mv notes.md NOTES.md' }, 12));
    await rm(join(t.workspace, 'old.txt'));
    await rename(join(t.workspace, 'notes.md'), join(t.workspace, 'NOTES.md'));
    await agy(p.postToolUse(c, 12));
    await agy(p.preToolUse(c, 'run_command', { CommandLine: 'cat missing.txt' }, 13));
    await agy(p.postToolUse(c, 13, 'exit status 1'));
    // Background work still running: not the turn's end yet.
    expect(await agy(p.stop(c, false))).toMatchObject({ ok: true, outcome: 'ignored' });
    await agy(p.stop(c));
    trees.push(await treeAsText(t.workspace));

    // Turn 3: an MCP tool, and a tool that fails after changing a mode.
    await agy(p.preInvocation(c, 0));
    await agy(p.preToolUse(c, 'mcp_files_write', { path: 'mcp/out.txt', text: 'by MCP\n' }, 21));
    await writeFile(join(t.workspace, 'mcp.txt'), 'by MCP\n');
    await agy(p.postToolUse(c, 21));
    await agy(p.preToolUse(c, 'refactor_everything', { scope: 'all' }, 22));
    await chmod(join(t.workspace, 'run.sh'), 0o644);
    await agy(p.postToolUse(c, 22, 'tool failed'));
    await agy(p.stop(c));
    trees.push(await treeAsText(t.workspace));

    const all = await turns();
    expect(all.map((turn) => [turn.title, turn.status])).toEqual([
      [ANTIGRAVITY_PROMPT, 'committed'],
      [ANTIGRAVITY_PROMPT, 'committed'],
      [ANTIGRAVITY_PROMPT, 'committed'],
    ]);
    expect((await t.api<{ sessions: { platform: string }[] }>('GET', '/api/sessions')).json.sessions[0].platform).toBe(
      'antigravity',
    );
    expect(all[0].execUsed).toBe(false);
    expect(await files(all[0].turnId)).toEqual([
      ['created', 'workspace:/src/helper.ts'],
      ['modified', 'workspace:/src/app.ts'],
    ]);
    expect(all[1].execCommands.map((command) => [command.command.split(' ')[0], command.endedAt !== null])).toEqual([
      ['sed', true],
      ['rm', true],
      ['cat', true],
    ]);
    expect(await files(all[1].turnId)).toEqual([
      ['deleted', 'workspace:/notes.md'],
      ['deleted', 'workspace:/old.txt'],
      ['modified', 'workspace:/src/util.ts'],
      ['renamed', 'workspace:/NOTES.md'],
    ]);
    expect(all[2].execCommands.map((command) => command.tool)).toEqual(['mcp_files_write', 'refactor_everything']);
    expect(await files(all[2].turnId)).toEqual([
      ['created', 'workspace:/mcp.txt'],
      ['mode-changed', 'workspace:/run.sh'],
    ]);

    for (let n = all.length; n >= 1; n--) {
      expect((await t.api('POST', `/api/turns/${all[n - 1].turnId}/rollback`, {})).json, `turn ${n}`).toMatchObject({
        ok: true,
        errors: [],
      });
      expect(await treeAsText(t.workspace), `after rolling back turn ${n}`).toEqual(trees[n - 1]);
    }
    expect(await readFile(join(t.workspace, 'src', 'app.ts'), 'utf8')).toBe('export const answer = 41;\n');
  });
});
