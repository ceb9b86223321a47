// A command's whole answer reaches a pipe whose reader is slow: the bin waits for stdout to drain
// before it exits (process.exit with a full pipe drops what is still queued).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { TEST_BIN } from './test/run-terminal.js';
import { useTerminalFixture } from './test/terminal-fixture.js';

const t = useTerminalFixture('pipe-output');

/** The bin with stdout into a reader that takes nothing for its first second. */
function runIntoSlowReader(args: string[]): Promise<{ code: number | null; stdout: Buffer }> {
  return new Promise((resolve, reject) => {
    const [command, ...rest] = TEST_BIN;
    const child = spawn(command, [...rest, ...args], {
      cwd: t.workspace,
      env: { ...process.env, ...t.env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const chunks: Buffer[] = [];
    child.stdout.pause();
    setTimeout(() => child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk)).resume(), 1000);
    child.on('error', reject);
    // 'close' comes after both the exit and the end of stdout.
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks) }));
  });
}

describe('output into a pipe', () => {
  it('a 5 MB --json answer arrives whole through a slow reader, exit 0', async () => {
    const big = (n: number) => Array.from({ length: 40_000 }, (_, i) => `line ${n} ${i} ${'x'.repeat(12)}`).join('\n');
    await t.agentTurn('Write three big files', { 'a.txt': big(1), 'b.txt': big(2), 'c.txt': big(3) });
    const { code, stdout } = await runIntoSlowReader(['diff', 'last', '--json']);
    expect(stdout.length).toBeGreaterThan(5_000_000);
    expect(JSON.parse(stdout.toString('utf8')).diffs).toHaveLength(3);
    expect(code).toBe(0);
  }, 120_000);
});
