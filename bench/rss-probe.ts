// Child process of item 6: one engine operation in a fresh process, reporting its peak RSS
// (VmHWM, reset just before the operation through /proc/self/clear_refs) against the RSS
// it started from. Run as: node --expose-gc --import tsx bench/rss-probe.ts '<json>'.
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { engineRollback, engineTurn, loadOpenEngine } from './contenders/turnback.js';

export interface ProbeRequest {
  mode: 'rollback' | 'capture';
  workspace: string;
  dataDir: string;
  paths: string[];
  maxFileSize?: number;
}

export interface ProbeAnswer {
  baselineRssBytes: number;
  peakRssBytes: number;
  ms: number;
}

function statusKiB(field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(field));
  if (!line) throw new Error(`no ${field} in /proc/self/status`);
  return Number(line.split(/\s+/)[1]);
}

function settle(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2]) as ProbeRequest;
  const openEngine = await loadOpenEngine();
  const engine = await openEngine({
    workspace: request.workspace, dataDir: request.dataDir, keepSessions: 0,
    ...(request.maxFileSize ? { maxFileSize: request.maxFileSize } : {}),
  });
  // The new bytes are the caller's: they are in memory before the measured part starts.
  const edits = await Promise.all(request.paths.map(async (p) => ({
    path: p, content: Buffer.concat([await readFile(path.join(request.workspace, p)), Buffer.from('\n// edited\n')]),
  })));
  let operation: () => Promise<unknown>;
  if (request.mode === 'rollback') {
    const turnId = await engineTurn(engine, 'rss', edits, 'turn to roll back');
    operation = () => engineRollback(engine, turnId);
  } else {
    operation = () => engineTurn(engine, 'rss', edits, 'large capture');
  }
  settle();
  writeFileSync('/proc/self/clear_refs', '5');
  const baseline = statusKiB('VmRSS');
  const start = performance.now();
  await operation();
  const ms = performance.now() - start;
  const peak = statusKiB('VmHWM');
  await engine.close();
  const answer: ProbeAnswer = { baselineRssBytes: baseline * 1024, peakRssBytes: peak * 1024, ms };
  process.stdout.write(JSON.stringify(answer) + '\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
