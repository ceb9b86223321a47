// Sharing notes between two clones through a bare remote, with the person's own git push and fetch.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CommitNote } from '../protocol.js';
import { readNotes, writeNote } from './notes.js';
import { mergeRemoteNotes, pullNotes, pushNotes, shareOff, shareOn, shareState } from './share.js';

let base: string;
const run = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const note = (id: string): CommitNote => ({
  turnback: 1,
  turns: [
    {
      id,
      host: 'codex',
      session: 's',
      at: '2026-01-01T00:00:00.000Z',
      title: id,
      files: { f: '1' },
      lines: 1,
      record: 'sha256:0',
    },
  ],
});

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'share-'));
  run(base, 'init', '-q', '--bare', '-b', 'main', 'remote.git');
  for (const name of ['one', 'two']) {
    run(base, 'clone', '-q', join(base, 'remote.git'), name);
    run(join(base, name), 'config', 'user.name', name);
    run(join(base, name), 'config', 'user.email', `${name}@example.com`);
  }
  writeFileSync(join(base, 'one', 'f'), 'x\n');
  run(join(base, 'one'), 'add', 'f');
  run(join(base, 'one'), 'commit', '-qm', 'first');
  run(join(base, 'one'), 'push', '-q', 'origin', 'main');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

it("carries notes with the person's own git push and git fetch once shared, and merges two clones' notes", async () => {
  const one = join(base, 'one');
  const two = join(base, 'two');
  expect((await shareState(one, 'origin')).on).toBe(false);
  await shareOn(one, 'origin', false);
  await shareOn(one, 'origin', false); // twice adds nothing twice
  expect(run(one, 'config', '--get-all', 'remote.origin.push').split('\n')).toEqual([
    'HEAD',
    'refs/notes/turnback:refs/notes/turnback',
  ]);
  await shareOn(two, 'origin', true);
  expect(await shareState(two, 'origin')).toEqual({ remote: 'origin', on: true, prompts: true });

  const first = run(one, 'rev-parse', 'HEAD');
  await writeNote(one, first, note('from-one'));
  writeFileSync(join(one, 'f'), 'y\n');
  run(one, 'commit', '-qam', 'second');
  const second = run(one, 'rev-parse', 'HEAD');
  await writeNote(one, second, note('second-from-one'));
  run(one, 'push', '-q'); // the person's push: the branch and the notes
  run(two, 'fetch', '-q'); // the person's fetch
  run(two, 'merge', '-q', '--ff-only', 'origin/main');
  await mergeRemoteNotes(two); // what the service's next link (or turnback pull) does
  run(two, 'push', '-q'); // then the person's own push goes, notes included
  expect((await readNotes(two)).get(second)?.turns[0].id).toBe('second-from-one');

  // Both clones note the same commit meanwhile: a push after the other's merges both sides.
  await writeNote(two, first, note('from-two'));
  await pushNotes(two, 'origin');
  await writeNote(one, second, { turnback: 1, turns: [...note('second-from-one').turns, ...note('later-one').turns] });
  await pushNotes(one, 'origin');
  await pullNotes(two, 'origin');
  const merged = await readNotes(two);
  expect(
    merged
      .get(first)
      ?.turns.map((t) => t.id)
      .sort(),
  ).toEqual(['from-one', 'from-two']);
  expect(
    merged
      .get(second)
      ?.turns.map((t) => t.id)
      .sort(),
  ).toEqual(['later-one', 'second-from-one']);

  await shareOff(one, 'origin');
  expect(run(one, 'config', '--get-all', 'remote.origin.fetch')).toBe('+refs/heads/*:refs/remotes/origin/*');
  expect(() => run(one, 'config', '--get-all', 'remote.origin.push')).toThrow();
});
