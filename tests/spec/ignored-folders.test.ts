// Git-ignored build output has a budget: a folder git ignores is protected while it stays small,
// and beyond its budget is left out of the scans and said so, while every ignored file (`.env`)
// stays protected. The rules are git's, checked against `git check-ignore` itself.
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Engine, EngineOptions } from '../../server/engine/api.js';
import { IgnoreRules } from '../../server/engine/record/ignored-folders.js';
import { makeSandbox, plant, who, ws, type Sandbox } from '../../server/testkit/engine-harness.js';
import { assertSameTree } from '../../server/testkit/tree-diff.js';

let sandbox: Sandbox;
let engine: Engine;
const s = who();
/** Small budgets keep the trees small: 20 files or 64 KiB per ignored folder. */
const BUDGET: Partial<EngineOptions> = { ignoredBudget: { files: 20, bytes: 64 << 10 } };

beforeEach(async () => {
  sandbox = await makeSandbox();
});

function sh(command: string): string {
  return execFileSync('/bin/bash', ['-c', command], { cwd: sandbox.workspace, stdio: 'pipe', encoding: 'utf8' });
}

async function manyFiles(dir: string, count: number): Promise<void> {
  await mkdir(join(sandbox.workspace, dir), { recursive: true });
  for (let i = 0; i < count; i++) await writeFile(join(sandbox.workspace, dir, `f${i}.o`), `object ${i}\n`);
}

async function command(line: string) {
  const { execId } = await engine.exec({ ...s, tool: 'Bash', command: line });
  sh(line);
  return engine.execEnd({ ...s, execId: execId! });
}

async function turnOf(body: () => Promise<unknown>): Promise<string> {
  const { turnId } = await engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: 'build' });
  await body();
  await engine.turnEnd(s);
  return turnId!;
}

describe('git-ignored folders', () => {
  it('a big ignored folder is left out and said so; .env and a small ignored folder stay protected', async () => {
    await plant(sandbox.workspace, {
      '.gitignore': 'target/\n.env\ncache/\n',
      '.env': 'SECRET=1\n',
      'src/main.rs': 'fn main() {}\n',
      'cache/one.json': '{}\n',
    });
    await manyFiles('target/debug', 60);
    engine = await sandbox.open(BUDGET);
    const start = await sandbox.tree();
    let outcome!: Awaited<ReturnType<typeof command>>;
    const turnId = await turnOf(async () => {
      outcome = await command('rm .env && rm -rf cache && echo more > target/debug/new.o && rm target/debug/f1.o');
    });
    expect(outcome.skipped).toEqual([
      { uri: ws('target'), reason: 'over-budget', files: 21, bytes: expect.any(Number) },
    ]);
    const turn = engine.getManifest(turnId).turn;
    expect(turn.execCaptured).toBe(true);
    expect(turn.execCommands[0].skipped).toEqual(outcome.skipped);
    const files = engine
      .getManifest(turnId)
      .files.map((f) => f.uri)
      .sort();
    expect(files).toEqual([ws('.env'), ws('cache'), ws('cache/one.json')]);

    const result = await engine.rollback(turnId);
    expect(result.ok).toBe(true);
    expect(await readFile(join(sandbox.workspace, '.env'), 'utf8')).toBe('SECRET=1\n');
    expect(await readFile(join(sandbox.workspace, 'cache/one.json'), 'utf8')).toBe('{}\n');
    // target/ is not protected: the rollback leaves it as the command left it.
    const after = await sandbox.tree();
    expect(after.has('target/debug/new.o')).toBe(true);
    expect(after.has('target/debug/f1.o')).toBe(false);
    after.delete('target/debug/new.o');
    start.delete('target/debug/f1.o');
    assertSameTree(start, after);
    // Nothing of target/ went into the store: only the few protected contents.
    expect(engine.storeStats().blobs).toBeLessThan(10);
  });

  it('an ignored folder within its budget is protected: its rm -rf rolls back exactly', async () => {
    await plant(sandbox.workspace, { '.gitignore': 'build/\n', 'src/a.c': 'int a;\n' });
    await manyFiles('build', 5);
    engine = await sandbox.open(BUDGET);
    const start = await sandbox.tree();
    const turnId = await turnOf(() => command('rm -rf build'));
    expect((await engine.rollback(turnId)).ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
  });

  it('--protect takes a big ignored folder back in', async () => {
    await plant(sandbox.workspace, { '.gitignore': 'target/\n' });
    await manyFiles('target', 40);
    engine = await sandbox.open({ ...BUDGET, protect: ['target'] });
    const start = await sandbox.tree();
    const turnId = await turnOf(async () => {
      const outcome = await command('rm target/f3.o && echo x >> target/f4.o');
      expect(outcome.skipped).toEqual([]);
    });
    expect((await engine.rollback(turnId)).ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
  });

  it('a folder that grows over its budget in a later turn is said so, never deleted by a rollback', async () => {
    await plant(sandbox.workspace, { '.gitignore': 'out/\n', 'main.c': 'int main;\n' });
    await manyFiles('out', 3);
    engine = await sandbox.open(BUDGET);
    const first = await turnOf(() => command('echo 1 > out/f0.o'));
    expect(engine.getManifest(first).files.map((f) => f.uri)).toEqual([ws('out/f0.o')]);
    let grown!: Awaited<ReturnType<typeof command>>;
    const second = await turnOf(async () => {
      grown = await command('for i in $(seq 100 150); do echo $i > out/g$i.o; done');
    });
    expect(grown.skipped).toEqual([expect.objectContaining({ uri: ws('out'), reason: 'over-budget' })]);
    expect(engine.getManifest(second).files).toEqual([]);
    const before = await sandbox.tree();
    const result = await engine.rollback(second);
    expect(result.ok).toBe(true);
    assertSameTree(before, await sandbox.tree());
  });

  it('a folder that shrinks under its budget during a command is not taken for new', async () => {
    await plant(sandbox.workspace, { '.gitignore': 'target/\n' });
    await manyFiles('target', 40);
    engine = await sandbox.open(BUDGET);
    let cleaned!: Awaited<ReturnType<typeof command>>;
    const turnId = await turnOf(async () => {
      cleaned = await command('rm target/f1*.o target/f2*.o target/f3*.o');
    });
    expect(cleaned.changed).toEqual([]);
    expect(engine.getManifest(turnId).files).toEqual([]);
    const before = await sandbox.tree();
    await engine.rollback(turnId);
    assertSameTree(before, await sandbox.tree());
  });

  it('with no budget, every ignored folder is protected as before', async () => {
    await plant(sandbox.workspace, { '.gitignore': 'target/\n' });
    await manyFiles('target', 40);
    engine = await sandbox.open({ ignoredBudget: null });
    const start = await sandbox.tree();
    const turnId = await turnOf(() => command('rm -rf target'));
    expect((await engine.rollback(turnId)).ok).toBe(true);
    assertSameTree(start, await sandbox.tree());
  });
});

describe('IgnoreRules', () => {
  it('agrees with git check-ignore on nested .gitignore files and negations', async () => {
    const tree: Record<string, string> = {
      '.gitignore': '*.log\n/build/\nvendor/\n!keep.log\ndist\n# a comment\n\\#hash\n',
      'a.log': '',
      'keep.log': '',
      '#hash': '',
      'src/app.ts': '',
      'src/debug.log': '',
      'src/.gitignore': '!debug.log\ngen/\n*.tmp\n',
      'src/gen/out.ts': '',
      'src/x.tmp': '',
      'src/sub/.gitignore': '!*.tmp\n',
      'src/sub/y.tmp': '',
      'build/a.o': '',
      'lib/build/a.o': '',
      'vendor/pkg/index.js': '',
      'lib/vendor/x.js': '',
      'dist/bundle.js': '',
      'pkg/dist': '',
      'docs/.gitignore': '*\n!*.md\n!/sub/\n',
      'docs/readme.md': '',
      'docs/note.txt': '',
      'docs/sub/inner.md': '',
    };
    await plant(sandbox.workspace, tree);
    sh('git init -q .');
    const paths = new Set<string>();
    for (const rel of Object.keys(tree)) {
      const parts = rel.split('/');
      for (let i = 1; i <= parts.length; i++) paths.add(parts.slice(0, i).join('/'));
    }
    const dirs = new Set([...paths].filter((p) => !(p in tree)));
    const gitIgnored = new Set(
      sh(`git check-ignore ${[...paths].map((p) => `'${p}'`).join(' ')} || true`)
        .split('\n')
        .filter(Boolean),
    );
    const ours = new Set<string>();
    for (const rel of paths) {
      // Top-down, as a scan meets the path: a folder git ignores hides what is below it.
      const parts = rel.split('/');
      let rules = IgnoreRules.none().within('', tree['.gitignore']);
      let ignored = false;
      for (let i = 1; i < parts.length && !ignored; i++) {
        const dir = parts.slice(0, i).join('/');
        if (rules.ignores(dir, true)) ignored = true;
        else rules = rules.within(dir, tree[`${dir}/.gitignore`] ?? null);
      }
      if (ignored || rules.ignores(rel, dirs.has(rel))) ours.add(rel);
    }
    expect([...ours].sort()).toEqual([...gitIgnored].sort());
  });
});
