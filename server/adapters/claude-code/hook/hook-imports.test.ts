// The hook runs once per Claude Code tool call, so `turnback hook claude-code` must load
// nothing heavy: only node built-ins and its own small modules — never the engine,
// better-sqlite3 or the HTTP server. Follows the static (run-time) imports from the entry.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverDir = fileURLToPath(new URL('../../..', import.meta.url));

/** Run-time imports of a module: `import type` is erased; `import(...)` loads only when called. */
function staticImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers: string[] = [];
  for (const match of source.matchAll(/^\s*(import|export)\s+(?!type\s)[^'";]*?from\s+['"]([^'"]+)['"]/gm)) {
    specifiers.push(match[2]);
  }
  for (const match of source.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) specifiers.push(match[1]);
  return specifiers;
}

function loadedBy(entries: string[]): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
      else packages.add(specifier);
    }
  }
  return { files: [...files].map((f) => relative(serverDir, f)).sort(), packages: [...packages].sort() };
}

describe('what `turnback hook claude-code` loads', () => {
  it('is node built-ins and the hook modules only', () => {
    const { files, packages } = loadedBy([resolve(serverDir, 'cli.ts'), resolve(serverDir, 'cli', 'hook.ts')]);
    expect(packages.filter((name) => !name.startsWith('node:'))).toEqual([]);
    // protocol.ts imports nothing: its constants (the session-id pattern) cost nothing to load.
    // Of the host-neutral core, only its path and text helpers and the route's path; Cursor's
    // parser, for the Cursor-shaped events Cursor sends through Claude Code's hooks.
    const core = [
      'adapters/core/paths.ts',
      'adapters/core/text.ts',
      'adapters/core/hook-path.ts',
      'adapters/cursor/event.ts',
    ];
    const adapter = (file: string) =>
      file.startsWith('adapters/claude-code/') ||
      core.includes(file) ||
      file === 'state-dir.ts' ||
      file === 'protocol.ts';
    // Finding and starting the service: small modules of node built-ins, never the service itself.
    expect(files.filter((file) => !adapter(file))).toEqual([
      'cli.ts',
      'cli/hook.ts',
      'cli/usage.ts',
      'service/private-file.ts',
      'service/service-file.ts',
      'service/spawn-service.ts',
      'service/spool.ts',
      'service/start-claim.ts',
      'socket-lock.ts',
    ]);
    expect(files).toContain('adapters/claude-code/hook/run.ts');
    // The server's side of the adapter (the route, the transcript) is never the hook's.
    expect(files.filter((file) => file.startsWith('adapters/claude-code/receive/'))).toEqual([]);
  });
});
