// Random operation sequences for the property test: fast-check arbitraries over a small pool of
// paths, and an interpreter that applies each operation through the engine when it is valid
// for the tree as it stands on disk (and skips it otherwise), so every sequence is meaningful.
import { execFileSync } from 'node:child_process';
import { chmod, lstat, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Engine } from '../../server/engine/api.js';
import type { StepRef } from '../../server/protocol.js';
import type { PlantSpec } from '../../server/testkit/engine-harness.js';

export const PATHS = ['a', 'b', 'd', 'd/c', 'd/e', 'd/e/f', 'n', 'n/m', 'n/m/g', 's p', 'ü'] as const;
const INITIAL_FILES = ['a', 'd/c', 'd/e/f', 's p', 'ü'] as const;
const LINK_PATHS = ['b', 'n', 'd/l'] as const;
const LINK_TARGETS = ['a', '../a', 'd', 'missing'] as const;

const pathIndex = fc.nat({ max: PATHS.length - 1 });
const mode = fc.constantFrom(0o644, 0o755);

export const content = fc.oneof(
  fc.string({ maxLength: 24 }).map((s) => new Uint8Array(Buffer.from(s, 'utf8'))),
  fc.uint8Array({ minLength: 1, maxLength: 16 }).map((bytes) => Uint8Array.from([0, ...bytes])),
  fc.constant(new Uint8Array(0)),
);

export type Op =
  | { op: 'write'; p: number; data: Uint8Array }
  | { op: 'chmod'; p: number; mode: number }
  | { op: 'delete'; p: number }
  | { op: 'rmrf'; p: number }
  | { op: 'rename'; p: number; q: number }
  | { op: 'move'; p: number; q: number }
  | { op: 'mkdir'; p: number }
  | { op: 'export'; p: number }
  | { op: 'import'; p: number; data: Uint8Array }
  | { op: 'hostWrite'; p: number; data: Uint8Array }
  | { op: 'hostRename'; p: number; q: number }
  | { op: 'shell'; steps: ShellStep[] };

/** One step of a shell command the engine cannot see into: only its scans tell what it did. */
export type ShellStep =
  | { kind: 'write' | 'append'; p: number; data: Uint8Array }
  | { kind: 'rm' | 'rmrf' | 'mkdir'; p: number }
  | { kind: 'mv' | 'cp'; p: number; q: number }
  | { kind: 'chmod'; p: number; mode: number }
  | { kind: 'ln'; p: number; target: string };

const shellStepArb: fc.Arbitrary<ShellStep> = fc.oneof(
  {
    arbitrary: fc.record({ kind: fc.constantFrom('write' as const, 'append' as const), p: pathIndex, data: content }),
    weight: 4,
  },
  {
    arbitrary: fc.record({ kind: fc.constantFrom('rm' as const, 'rmrf' as const, 'mkdir' as const), p: pathIndex }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ kind: fc.constantFrom('mv' as const, 'cp' as const), p: pathIndex, q: pathIndex }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('chmod' as const), p: pathIndex, mode }), weight: 1 },
  {
    arbitrary: fc.record({ kind: fc.constant('ln' as const), p: pathIndex, target: fc.constantFrom(...LINK_TARGETS) }),
    weight: 1,
  },
);

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
/** Bytes as printf escapes, so any content (NUL included) passes through the shell exactly. */
const printable = (data: Uint8Array) => [...data].map((b) => `\\${b.toString(8).padStart(3, '0')}`).join('');

export function shellCommand(steps: ShellStep[]): string {
  return steps
    .map((step) => {
      const p = quote(PATHS[step.p]);
      switch (step.kind) {
        case 'write':
          return `printf ${quote(printable(step.data))} > ${p}`;
        case 'append':
          return `printf ${quote(printable(step.data))} >> ${p}`;
        case 'rm':
          return `rm -f ${p}`;
        case 'rmrf':
          return `rm -rf ${p}`;
        case 'mkdir':
          return `mkdir -p ${p}`;
        case 'mv':
          return `mv -f ${p} ${quote(PATHS[step.q])}`;
        case 'cp':
          return `cp -a ${p} ${quote(PATHS[step.q])}`;
        case 'chmod':
          return `chmod ${step.mode.toString(8)} ${p}`;
        case 'ln':
          return `ln -sfn ${quote(step.target)} ${p}`;
      }
    })
    .map((line) => `${line} 2>/dev/null`)
    .join('; ');
}

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant('write' as const), p: pathIndex, data: content }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant('chmod' as const), p: pathIndex, mode }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('delete' as const), p: pathIndex }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('rmrf' as const), p: pathIndex }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('rename' as const), p: pathIndex, q: pathIndex }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('move' as const), p: pathIndex, q: pathIndex }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant('mkdir' as const), p: pathIndex }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('export' as const), p: pathIndex }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('import' as const), p: pathIndex, data: content }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('hostWrite' as const), p: pathIndex, data: content }), weight: 1 },
  { arbitrary: fc.record({ op: fc.constant('hostRename' as const), p: pathIndex, q: pathIndex }), weight: 1 },
  {
    arbitrary: fc.record({
      op: fc.constant('shell' as const),
      steps: fc.array(shellStepArb, { minLength: 1, maxLength: 4 }),
    }),
    weight: 3,
  },
);

/** Names in the untracked `tmp` root, unique across runs sharing a data dir. */
let tmpNames = 0;
const tmpUri = (kind: string) => `tmp:/${kind}-${++tmpNames}`;

export const initialTreeArb: fc.Arbitrary<Record<string, PlantSpec>> = fc
  .record({
    files: fc.tuple(...INITIAL_FILES.map(() => fc.option(fc.record({ content, mode }), { nil: undefined }))),
    links: fc.uniqueArray(fc.record({ at: fc.constantFrom(...LINK_PATHS), target: fc.constantFrom(...LINK_TARGETS) }), {
      maxLength: 2,
      selector: (l) => l.at,
    }),
    emptyDir: fc.boolean(),
  })
  .map(({ files, links, emptyDir }) => {
    const spec: Record<string, PlantSpec> = { d: { dir: true, mode: 0o755 }, 'd/e': { dir: true, mode: 0o750 } };
    files.forEach((file, i) => {
      if (file) spec[INITIAL_FILES[i]] = { content: file.content, mode: file.mode };
    });
    for (const link of links) spec[link.at] = { symlink: link.target };
    if (emptyDir) spec.z = { dir: true, mode: 0o700 };
    return spec;
  });

export const turnsArb = fc.array(fc.array(opArb, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 3 });

type Kind = 'file' | 'dir' | 'symlink' | null;

async function kindAt(root: string, rel: string): Promise<Kind> {
  try {
    const st = await lstat(join(root, rel));
    if (st.isSymbolicLink()) return 'symlink';
    return st.isDirectory() ? 'dir' : 'file';
  } catch {
    return null;
  }
}

/** Every proper ancestor is a real directory, or absent when `mayCreate` (never a file or link). */
async function ancestorsOk(root: string, rel: string, mayCreate: boolean): Promise<boolean> {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i++) {
    const kind = await kindAt(root, parts.slice(0, i).join('/'));
    if (kind === 'dir') continue;
    if (kind === null && mayCreate) continue;
    return false;
  }
  return true;
}

/** Every ancestor exists as a real directory (a host writing files itself makes no parents). */
const parentExists = (root: string, rel: string) => ancestorsOk(root, rel, false);

const within = (inner: string, outer: string): boolean => inner === outer || inner.startsWith(`${outer}/`);

/** Applies `op` through the engine when it is valid on the current tree; returns what it did. */
export async function applyOp(
  engine: Engine,
  root: string,
  sessionId: string,
  op: Op,
  step?: StepRef,
): Promise<string | null> {
  const p = PATHS['p' in op ? op.p : 0];
  const at = (rel: string) => `workspace:/${rel}`;
  const s = step ? { sessionId, step } : { sessionId };
  const kind = await kindAt(root, p);
  switch (op.op) {
    case 'write':
      if ((kind !== null && kind !== 'file') || !(await ancestorsOk(root, p, true))) return null;
      await engine.storage.writeFile(at(p), op.data, s);
      return `write ${p} (${op.data.length}B)`;
    case 'chmod':
      if (kind !== 'file' || !(await ancestorsOk(root, p, false))) return null;
      // A host that changes files itself announces it first.
      await engine.beforeMutate({ ...s, op: 'write', uri: at(p) });
      await chmod(join(root, p), op.mode);
      return `chmod ${p} ${op.mode.toString(8)}`;
    case 'delete':
      if ((kind !== 'file' && kind !== 'symlink') || !(await ancestorsOk(root, p, false))) return null;
      await engine.storage.delete(at(p), s);
      return `delete ${p}`;
    case 'rmrf':
      if (kind !== 'dir' || !(await ancestorsOk(root, p, false))) return null;
      await engine.storage.delete(at(p), { ...s, recursive: true });
      return `delete -r ${p}`;
    case 'mkdir':
      if (kind !== null || !(await ancestorsOk(root, p, true))) return null;
      await engine.storage.mkdir(at(p), s);
      return `mkdir ${p}`;
    case 'export': {
      if (kind === null || !(await ancestorsOk(root, p, false))) return null;
      const to = tmpUri('exported');
      await engine.storage.move(at(p), to, s);
      return `move ${p} -> ${to}`;
    }
    case 'import': {
      if (kind !== null || !(await ancestorsOk(root, p, true))) return null;
      const from = tmpUri('incoming');
      await engine.storage.writeFile(from, op.data, s);
      await engine.storage.move(from, at(p), s);
      return `move ${from} -> ${p}`;
    }
    case 'hostWrite':
      if ((kind !== null && kind !== 'file') || !(await parentExists(root, p))) return null;
      // A host that changes files itself announces it first.
      await engine.beforeMutate({ ...s, op: 'write', uri: at(p) });
      await writeFile(join(root, p), op.data);
      return `host write ${p}`;
    case 'hostRename': {
      const q = PATHS[op.q];
      if ((kind !== 'file' && kind !== 'symlink') || p === q || !(await parentExists(root, p))) return null;
      const target = await kindAt(root, q);
      if (target === 'dir' || !(await parentExists(root, q))) return null;
      await engine.beforeMutate({ ...s, op: 'rename', uri: at(p), to: at(q) });
      await rename(join(root, p), join(root, q));
      return `host rename ${p} -> ${q}`;
    }
    case 'shell': {
      // A command: the before scan, the command itself, the after scan.
      const command = shellCommand(op.steps);
      const { execId } = await engine.exec({ ...s, tool: 'Bash', command });
      execFileSync('/bin/bash', ['-c', `${command}; true`], { cwd: root, stdio: 'pipe' });
      if (execId) await engine.execEnd({ ...s, execId });
      return `shell: ${command}`;
    }
    case 'rename':
    case 'move': {
      const q = PATHS[op.q];
      if (kind === null || within(q, p) || within(p, q)) return null;
      if (!(await ancestorsOk(root, p, false))) return null;
      if (!(await ancestorsOk(root, q, op.op === 'move'))) return null;
      if (op.op === 'rename' && q.includes('/') && (await kindAt(root, q.slice(0, q.lastIndexOf('/')))) !== 'dir')
        return null;
      const target = await kindAt(root, q);
      if (target === 'dir' || (target !== null && kind === 'dir')) return null;
      if (op.op === 'rename') await engine.storage.rename(at(p), at(q), s);
      else await engine.storage.move(at(p), at(q), s);
      return `${op.op} ${p} -> ${q}`;
    }
  }
}
