// The engine's house rules, as a reader can grep them: SQL is spoken in engine/db/ alone (its
// repositories own their statements, their column shapes and their JSON columns), so a change
// of the stored format stays inside that folder; and recording (record/) and the turn
// lifecycle (turns/) stand on their own, neither importing the other.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DB = path.join(SERVER, 'engine', 'db') + path.sep;
const SELF = fileURLToPath(import.meta.url);

/** Files whose JSON.parse reads no stored column, with why. */
const PARSES_NO_COLUMN: Record<string, string> = {
  'engine/lock.ts': 'the lock file names its owner',
};

interface Source {
  rel: string;
  text: string;
}

function sources(): Source[] {
  return readdirSync(SERVER, { recursive: true, encoding: 'utf8' })
    .filter((rel) => rel.endsWith('.ts') && !rel.includes('node_modules'))
    .map((rel) => path.join(SERVER, rel))
    .filter((file) => file !== SELF && !file.startsWith(DB))
    .map((file) => ({ rel: path.relative(SERVER, file).split(path.sep).join('/'), text: readFileSync(file, 'utf8') }));
}

/** `file:line: text` for each line of these sources that matches. */
function offending(files: Source[], pattern: RegExp): string[] {
  return files.flatMap(({ rel, text }) =>
    text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${rel}:${i + 1}: ${line.trim()}`] : [])),
  );
}

/** Lines of a folder's sources that import from the other folder. */
function importsOf(files: Source[], from: string, of: string): string[] {
  const own = files.filter((s) => s.rel.startsWith(`engine/${from}/`));
  return offending(own, new RegExp(`from '\\.\\./${of}/`));
}

const isTest = (rel: string) => /\.test\.ts$|\.testutil\.ts$|^testkit\//.test(rel);

describe('the house rules', () => {
  const all = sources();

  it('finds the sources it checks', () => {
    expect(all.length).toBeGreaterThan(100);
    expect(all.some((s) => s.rel === 'engine/engine.ts')).toBe(true);
  });

  it('prepares no statement outside engine/db', () => {
    expect(offending(all, /\.st\(/)).toEqual([]);
  });

  it('declares no row type outside engine/db', () => {
    expect(offending(all, /\b(interface|type|class)\s+\w*Row\b/)).toEqual([]);
  });

  it('parses no stored column outside engine/db', () => {
    const engine = all.filter((s) => s.rel.startsWith('engine/') && !isTest(s.rel) && !(s.rel in PARSES_NO_COLUMN));
    expect(offending(engine, /JSON\.parse\(/)).toEqual([]);
  });

  it('keeps record/ and turns/ apart', () => {
    expect(importsOf(all, 'record', 'turns')).toEqual([]);
    expect(importsOf(all, 'turns', 'record')).toEqual([]);
  });
});
