// Child process of item 6: a turn writing one large file, in a fresh process, reporting its
// peak RSS against the RSS it started from. Run as: node --import tsx bench/rss-probe.ts '<json>'.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { engineTurn, loadOpenEngine } from './contenders/turnback.js';
import { startRssWindow } from './rss.js';

export interface ProbeRequest {
  workspace: string;
  dataDir: string;
  paths: string[];
  maxFileSize?: number;
}

export interface ProbeAnswer {
  baselineRssBytes: number;
  peakRssBytes: number;
  liveGrowthBytes: number;
  ms: number;
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2]) as ProbeRequest;
  const openEngine = await loadOpenEngine();
  const engine = await openEngine({
    workspace: request.workspace,
    dataDir: request.dataDir,
    keepSessions: 0,
    ...(request.maxFileSize ? { maxFileSize: request.maxFileSize } : {}),
  });
  // The new bytes are the caller's: they are in memory before the measured part starts.
  const edits = await Promise.all(
    request.paths.map(async (p) => ({
      path: p,
      content: Buffer.concat([await readFile(path.join(request.workspace, p)), Buffer.from('\n// edited\n')]),
    })),
  );
  const window = startRssWindow();
  const start = performance.now();
  await engineTurn(engine, 'rss', edits, 'large capture');
  const ms = performance.now() - start;
  const { peakBytes, liveGrowthBytes } = window.finish();
  await engine.close();
  const answer: ProbeAnswer = { baselineRssBytes: window.baselineBytes, peakRssBytes: peakBytes, liveGrowthBytes, ms };
  process.stdout.write(JSON.stringify(answer) + '\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
