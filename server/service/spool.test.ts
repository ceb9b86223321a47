// The hooks' spool file: appended 0600 and bounded, taken in oldest first, a spool a stopped
// service left part-way taken in before the new one, a line cut short left out.
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { appendToSpool, deliveryIdOf, MAX_SPOOL_BYTES, takeSpool } from './spool.js';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'turnback-spool-'));
  file = path.join(dir, 'state', 'spool.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const entry = (n: number, event = `{"n":${n}}`) => ({ host: 'claude-code', delivery: `d${n}`, at: `t${n}`, event });

it('keeps events in order, 0600, and takes them in once', () => {
  for (let n = 0; n < 3; n++) expect(appendToSpool(file, entry(n))).toBe(true);
  expect(statSync(file).mode & 0o777).toBe(0o600);
  const taken = takeSpool(file);
  expect(taken.events.map((event) => event.delivery)).toEqual(['d0', 'd1', 'd2']);
  // Appended while taken in: the next round.
  appendToSpool(file, entry(3));
  taken.done();
  const next = takeSpool(file);
  expect(next.events.map((event) => event.delivery)).toEqual(['d3']);
  next.done();
  expect(readdirSync(path.dirname(file))).toEqual([]);
});

it('takes a spool left part-way first, and leaves a cut line out', () => {
  const left = `${file}.1000-42.taking`;
  appendToSpool(file, entry(0));
  writeFileSync(left, `${JSON.stringify(entry(9))}\n`);
  appendFileSync(file, '{"host":"claude-code","deliv');
  const taken = takeSpool(file);
  expect(taken.events.map((event) => event.delivery)).toEqual(['d9', 'd0']);
  expect(taken.damaged).toBe(1);
  taken.done();
  expect(existsSync(left)).toBe(false);
});

it('refuses an event past its bound', () => {
  const big = 'x'.repeat(MAX_SPOOL_BYTES / 2);
  expect(appendToSpool(file, entry(0, big))).toBe(true);
  expect(appendToSpool(file, entry(1, big))).toBe(false);
  expect(takeSpool(file).events).toHaveLength(1);
});

it('gives a delivery id to prompts, stops and replies only', () => {
  expect(deliveryIdOf('{"hook_event_name":"UserPromptSubmit"}')).toMatch(/^[0-9a-f-]{36}$/);
  expect(deliveryIdOf('{"hook_event_name":"AfterAgent"}')).toBeDefined();
  expect(deliveryIdOf('{"hook_event_name":"PreToolUse"}')).toBeUndefined();
  expect(deliveryIdOf('not json')).toBeUndefined();
});
