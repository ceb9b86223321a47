// No import cycle in the server or the console (what `madge --circular` checks, without its
// dependency tree): a cycle makes the load order decide which module sees the other half-built,
// and hides which way the layers depend. Type-only imports count too, as madge counts them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FOLDERS = ['server', 'src'];

/** The relative specifiers a source imports or re-exports, static and dynamic. */
export function specifiersOf(text: string): string[] {
  const found: string[] = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;
  for (const match of text.matchAll(pattern)) found.push(match[1]);
  return found;
}

/** The source file a specifier names: `./a.js` is `./a.ts` or `./a.tsx`, a folder its index. */
function resolve(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, path.join(base, 'index.ts'), path.join(base, 'index.tsx')])
    if (existsSync(candidate)) return candidate;
  return null;
}

function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const folder of FOLDERS) {
    const root = path.join(REPO, folder);
    for (const rel of readdirSync(root, { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(rel) || rel.includes('node_modules')) continue;
      const file = path.join(root, rel);
      const targets = specifiersOf(readFileSync(file, 'utf8')).flatMap((s) => resolve(file, s) ?? []);
      edges.set(file, targets);
    }
  }
  return edges;
}

/** Every strongly connected component of more than one file, or a file importing itself (Tarjan). */
export function cyclesOf(edges: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (edges.get(node) ?? []).includes(node)) cycles.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('imports', () => {
  it('finds a cycle when there is one, and none in a chain', () => {
    const chain = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', []],
    ]);
    expect(cyclesOf(chain)).toEqual([]);
    chain.set('c', ['a']);
    expect(cyclesOf(chain)).toEqual([['a', 'b', 'c']]);
    expect(specifiersOf("import type { X } from './x.js';\nexport * from '../y.js';\nawait import('./z.js');")).toEqual(
      ['./x.js', '../y.js', './z.js'],
    );
  });

  it('has no cycle in server/ or src/', () => {
    const edges = graph();
    expect(edges.size).toBeGreaterThan(200);
    const cycles = cyclesOf(edges).map((c) => c.map((f) => path.relative(REPO, f)));
    expect(cycles).toEqual([]);
  });
});
