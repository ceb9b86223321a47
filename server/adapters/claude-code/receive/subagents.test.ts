// Background subagents (Claude Code 2.1.328): the parent's Stop comes before the subagent's
// edits; the turn stays open until the subagent has stopped (and Claude Code has answered its
// own task-notification), so those edits are the turn's and roll back with it. Late calls of a
// subagent whose turn has ended are never recorded in a later turn.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Manifest, Turn } from '../../../protocol.js';
import * as p from '../test/payloads.js';
import { startHookTestServer, type HookTestServer } from '../test/server.js';

let t: HookTestServer;
let c: { cwd: string; transcriptPath: string };
const AGENT = 'ad93383d3f6342d5b';
beforeEach(async () => {
  t = await startHookTestServer({
    files: { 'notes.txt': 'déjà vu\n' },
    subagentPromptWaitMs: 300,
    subagentWaitMs: 1500,
  });
  c = t.context;
});
afterEach(async () => {
  await t.close();
});

const turns = async () => (await t.api<{ turns: Turn[] }>('GET', `/api/sessions/${p.SESSION_ID}/turns`)).json.turns;
const files = async (turnId: string) =>
  (await t.api<Manifest>('GET', `/api/turns/${turnId}`)).json.files.map((f) => [f.change, f.uri]);
const hook = async (event: unknown) => (await t.postHook(event)).json;

/** The subagent edits notes.txt and writes sub.ts, each announced by its PreToolUse first. */
async function subagentEdits(): Promise<void> {
  await hook(p.bySubagent(p.edit(c, join(t.workspace, 'notes.txt'), 'vu', 'vu again'), AGENT));
  await writeFile(join(t.workspace, 'notes.txt'), 'déjà vu again\n');
  await hook(p.bySubagent(p.write(c, join(t.workspace, 'sub.ts'), 'x'), AGENT));
  await writeFile(join(t.workspace, 'sub.ts'), 'export const sub = 1;\n');
}

describe('a background subagent', () => {
  it("keeps its turn open past the parent's Stop: its edits are the turn's, and roll back with it", async () => {
    await hook(p.userPromptSubmit(c, 'Ask a subagent'));
    await hook(p.subagentStart(c, AGENT));
    expect(await hook(p.stopWithBackground(c, [AGENT]))).toEqual({ ok: true, outcome: 'forwarded', calls: 0 });
    expect((await turns())[0].status).toBe('active');
    await subagentEdits();
    await hook(p.subagentStop(c, AGENT));
    expect((await turns())[0].status).toBe('active');
    // Claude Code prompts itself about it: no new turn; its answer's Stop ends the turn.
    expect(await hook(p.taskNotification(c, AGENT))).toEqual({ ok: true, outcome: 'forwarded', calls: 0 });
    await hook({ ...p.stop(c), last_assistant_message: 'The subagent reported back.' });
    const all = await turns();
    expect(all.map((turn) => [turn.title, turn.status])).toEqual([['Ask a subagent', 'committed']]);
    expect((await files(all[0].turnId)).sort()).toEqual([
      ['created', 'workspace:/sub.ts'],
      ['modified', 'workspace:/notes.txt'],
    ]);
    expect((await t.api('POST', `/api/turns/${all[0].turnId}/rollback`, {})).json).toMatchObject({
      ok: true,
      errors: [],
    });
    expect(await readFile(join(t.workspace, 'notes.txt'), 'utf8')).toBe('déjà vu\n');
  });

  it("learns of a subagent from Stop's background_tasks alone (no SubagentStart hook)", async () => {
    await hook(p.userPromptSubmit(c, 'Ask a subagent'));
    await hook(p.stopWithBackground(c, [AGENT]));
    await subagentEdits();
    await hook(p.subagentStop(c, AGENT));
    await hook(p.sessionEnd(c));
    const [turn] = await turns();
    expect(turn.status).toBe('committed');
    expect(await files(turn.turnId)).toHaveLength(2);
  });

  it('ends the turn once the subagent has stopped and no task-notification came, within the wait', async () => {
    await hook(p.userPromptSubmit(c, 'Ask a subagent'));
    await hook(p.subagentStart(c, AGENT));
    await hook(p.stopWithBackground(c, [AGENT]));
    await hook(p.subagentStop(c, AGENT));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect((await turns())[0].status).toBe('committed');
  });

  it("ends the turn at the bound when the subagent never stops; its late calls are ignored, never a later turn's", async () => {
    await hook(p.userPromptSubmit(c, 'Ask a subagent'));
    await hook(p.subagentStart(c, AGENT));
    await hook(p.stopWithBackground(c, [AGENT]));
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect((await turns())[0].status).toBe('committed');
    await hook(p.userPromptSubmit(c, 'Next'));
    const late = await hook(p.bySubagent(p.write(c, join(t.workspace, 'late.ts'), 'x'), AGENT));
    expect(late).toMatchObject({ ok: true, outcome: 'ignored', ignored: expect.stringContaining('ended') });
    await hook(p.stop(c));
    expect(await files((await turns())[1].turnId)).toEqual([]);
  });

  it("is ended by the person's next prompt, which begins a new turn", async () => {
    await hook(p.userPromptSubmit(c, 'Ask a subagent'));
    await hook(p.subagentStart(c, AGENT));
    await hook(p.stopWithBackground(c, [AGENT]));
    await hook(p.userPromptSubmit(c, 'Meanwhile, this'));
    expect((await turns()).map((turn) => turn.status)).toEqual(['committed', 'active']);
  });

  it('is ended by SessionEnd at once: nothing of the session runs on', async () => {
    await hook(p.userPromptSubmit(c, 'Ask a subagent'));
    await hook(p.subagentStart(c, AGENT));
    await hook(p.stopWithBackground(c, [AGENT]));
    await hook(p.sessionEnd(c));
    expect((await turns())[0].status).toBe('committed');
  });

  it('a task-notification with no turn in progress begins none', async () => {
    expect(await hook(p.taskNotification(c, AGENT))).toMatchObject({ ok: true, outcome: 'ignored' });
    expect((await t.api<{ sessions: unknown[] }>('GET', '/api/sessions')).json.sessions).toEqual([]);
  });
});
