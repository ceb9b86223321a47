// `npx tsx bench/scan-probe.ts [files]`: what one command's scans cost on a tree of N files
// (10,000 by default, in nested directories as W2): the first exec (no index yet: every file
// is read), then exec + execEnd with nothing changed (an lstat per path), as a median.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openEngine } from '../server/engine/index.js';
import { summarize } from './stats.js';
import { generateWorkload } from './workloads.js';

const files = Number(process.argv[2]) || 10_000;
const RUNS = 15;
const SESSION = 'scan-probe';

async function main(): Promise<void> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'turnback-scan-probe-'));
  try {
    const workspace = path.join(base, 'workspace');
    await generateWorkload({ name: 'S', files, bytes: files * 1000 }, workspace, 0x5ca9);
    const engine = await openEngine({ workspace, dataDir: path.join(base, 'data'), scopes: ['*'] });
    try {
      await engine.input({ sessionId: SESSION, platform: 'bench', sessionType: 'chat', content: 'scan probe' });
      const command = async () => {
        const start = performance.now();
        const { execId } = await engine.exec({ sessionId: SESSION, tool: 'Bash', command: 'true' });
        await engine.execEnd({ sessionId: SESSION, execId: execId! });
        return performance.now() - start;
      };
      const first = await command();
      const samples: number[] = [];
      for (let i = 0; i < RUNS; i++) samples.push(await command());
      const s = summarize(samples);
      console.log(`tree of ${files.toLocaleString('en-US')} files`);
      console.log(`first exec + execEnd (reads every file): ${first.toFixed(1)} ms`);
      console.log(
        `exec + execEnd, nothing changed (two scans): median ${s.median.toFixed(1)} ms, min ${s.min.toFixed(1)} ms, max ${s.max.toFixed(1)} ms over ${RUNS}`,
      );
    } finally {
      await engine.close();
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
