// Deterministic workloads: source-like text trees (so git's zlib and any store compression
// see realistic bytes), and the edits a turn applies to them.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createRng, type Rng } from './prng.js';

export interface WorkloadSpec {
  name: string;
  files: number;
  bytes: number;
}

export interface Workload {
  spec: WorkloadSpec;
  /** The pristine tree: never modified after generation. */
  dir: string;
  /** Relative POSIX paths, in generation order. */
  paths: string[];
  totalBytes: number;
}

/** A turn's write of one file: the same bytes for every contender. */
export interface FileEdit {
  path: string;
  content: Buffer;
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tor',
  'vel',
  'zan',
  'qu',
  'id',
  'ex',
  'por',
  'al',
  'sun',
  'dex',
  'fir',
  'gan',
];
const TYPES = [
  'string',
  'number',
  'boolean',
  'Uint8Array',
  'Map<string, number>',
  'Promise<void>',
  'readonly string[]',
];

function identifier(rng: Rng): string {
  const parts = 2 + rng.int(3);
  let name = '';
  for (let i = 0; i < parts; i++) {
    const s = rng.pick(SYLLABLES);
    name += i === 0 ? s : s[0].toUpperCase() + s.slice(1);
  }
  return name;
}

function sourceLine(rng: Rng): string {
  const a = identifier(rng);
  const b = identifier(rng);
  switch (rng.int(8)) {
    case 0:
      return `export function ${a}(${b}: ${rng.pick(TYPES)}): ${rng.pick(TYPES)} {`;
    case 1:
      return `  const ${a} = ${b}.${identifier(rng)}(${rng.int(1000)});`;
    case 2:
      return `  if (${a} > ${rng.int(100)}) return ${b};`;
    case 3:
      return `  // ${a} keeps ${b} in step with ${identifier(rng)} across calls`;
    case 4:
      return `import { ${a}, ${b} } from './${identifier(rng)}.js';`;
    case 5:
      return `  ${a}.${b} = await ${identifier(rng)}(${b}, '${identifier(rng)}');`;
    case 6:
      return '}';
    default:
      return `  for (const ${a} of ${b}) total += ${a}.length * ${rng.int(64)};`;
  }
}

/** Lines are drawn from a fixed pool: generating 100 MB stays fast and bytes stay text. */
const LINE_POOL: string[] = (() => {
  const rng = createRng(0x5eed);
  return Array.from({ length: 8192 }, () => sourceLine(rng) + '\n');
})();

export function textOfSize(rng: Rng, size: number): Buffer {
  const lines: string[] = [];
  let length = 0;
  while (length < size) {
    const line = LINE_POOL[rng.int(LINE_POOL.length)];
    lines.push(line);
    length += line.length;
  }
  return Buffer.from(lines.join('').slice(0, size), 'latin1');
}

/** File i of n: one directory level per decimal digit, ten entries per directory. */
export function nestedPath(index: number, count: number): string {
  const width = Math.max(1, String(count - 1).length);
  const digits = String(index).padStart(width, '0').split('');
  const names = ['pkg', 'mod', 'part', 'unit', 'leaf'];
  const dirs = digits.slice(0, -1).map((d, level) => `${names[level] ?? 'dir'}-${d}`);
  return [...dirs, `file-${digits[digits.length - 1]}.ts`].join('/');
}

export async function generateWorkload(spec: WorkloadSpec, dir: string, seed: number): Promise<Workload> {
  const rng = createRng(seed);
  // Sizes vary ±80% around the mean, scaled so the total is exactly the spec's; the last
  // file absorbs the rounding.
  const weights = Array.from({ length: spec.files }, () => rng.range(0.2, 1.8));
  const scale = spec.bytes / weights.reduce((s, w) => s + w, 0);
  const sizes = weights.map((w) => Math.max(1, Math.round(w * scale)));
  sizes[sizes.length - 1] = Math.max(1, sizes[sizes.length - 1] + spec.bytes - sizes.reduce((s, n) => s + n, 0));
  const paths = spec.files === 1 ? ['data/large-dataset.txt'] : sizes.map((_, i) => nestedPath(i, spec.files));
  for (const parent of new Set(paths.map((p) => path.dirname(path.join(dir, p)))))
    await mkdir(parent, { recursive: true });
  // Contents are drawn in order (determinism); the writes overlap in batches (speed).
  const BATCH = 32;
  for (let start = 0; start < paths.length; start += BATCH) {
    const batch = paths
      .slice(start, start + BATCH)
      .map((p, k) => writeFile(path.join(dir, p), textOfSize(rng, sizes[start + k])));
    await Promise.all(batch);
  }
  return { spec, dir, paths, totalBytes: sizes.reduce((s, n) => s + n, 0) };
}

/**
 * A small edit an agent would make: a few lines replaced and one marker line added, so the
 * content always changes and the size stays close. Derived from the pristine bytes and the
 * edit id only, hence identical for every contender.
 */
export function smallEdit(original: Buffer, editId: number): Buffer {
  const rng = createRng(0xed17 + editId);
  const lines = original.toString('latin1').split('\n');
  for (let k = 0; k < 3 && lines.length > 1; k++) {
    lines[rng.int(lines.length)] = LINE_POOL[rng.int(LINE_POOL.length)].trimEnd();
  }
  lines.splice(rng.int(lines.length), 0, `// edit ${editId}`);
  return Buffer.from(lines.join('\n'), 'latin1');
}

export async function editsFor(workload: Workload, paths: string[], firstEditId: number): Promise<FileEdit[]> {
  return Promise.all(
    paths.map(async (p, i) => ({
      path: p,
      content: smallEdit(await readFile(path.join(workload.dir, p)), firstEditId + i),
    })),
  );
}

/** Hands out distinct paths of a workload in a seeded order (wrapping only if exhausted). */
export class PathPicker {
  private readonly order: string[];
  private cursor = 0;
  constructor(paths: readonly string[], seed: number) {
    this.order = createRng(seed).shuffle([...paths]);
  }
  take(n: number): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    while (out.length < n && seen.size < this.order.length) {
      const p = this.order[this.cursor % this.order.length];
      this.cursor++;
      if (!seen.has(p)) {
        seen.add(p);
        out.push(p);
      }
    }
    return out;
  }
}
