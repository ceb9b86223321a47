// A process for the crash specs to SIGKILL at a random point: it opens the engine and either
// runs one endless agent turn of mixed operations (`turn`), rolls back a recorded turn
// (`rollback`), or packs the contents a store holds raw (`pack`: deltas being written). It
// reports progress on stdout, one line per milestone.
// Usage: node --import tsx crash-child.ts '{"workspace","dataDir","mode","turnId"?}'
import { randomBytes } from 'node:crypto';
import { openEngine } from '../../server/engine/index.js';
import type { Engine } from '../../server/engine/api.js';

interface Args {
  workspace: string;
  dataDir: string;
  mode: 'turn' | 'rollback' | 'pack';
  turnId?: string;
}

const SESSION = 'crash';
const ws = (path: string): string => `workspace:/${path}`;

async function endlessTurn(engine: Engine): Promise<never> {
  const { turnId } = await engine.input({
    sessionId: SESSION,
    platform: 'webui',
    sessionType: 'chat',
    content: 'endless',
  });
  process.stdout.write(`turn ${turnId}\n`);
  const s = { sessionId: SESSION };
  for (let k = 0; ; k++) {
    await engine.storage.writeFile(ws(`w${k % 3}`), `written in round ${k}\n`, s);
    await engine.storage.writeFile(ws('big.bin'), randomBytes(64 * 1024), s);
    await engine.storage.mkdir(ws(`dirs/d${k}/e`), s);
    await engine.storage.move(ws(`w${k % 3}`), ws(`moved/k${k}/w`), s);
    await engine.storage.writeFile(ws(`moved/k${k}/w`), 'written after the move\n', s);
    await engine.storage.rename(ws(`base${k % 2}.txt`), ws(`base${k % 2}.tmp`), s);
    await engine.storage.writeFile(ws(`base${k % 2}.tmp`), `base changed in round ${k}\n`, s);
    await engine.storage.rename(ws(`base${k % 2}.tmp`), ws(`base${k % 2}.txt`), s);
    if (k < 10) await engine.storage.delete(ws(`doomed-${k}`), s);
    if (k === 3) await engine.storage.delete(ws('sub'), { ...s, recursive: true });
    await engine.storage.delete(ws(`moved/k${k}`), { ...s, recursive: true });
    process.stdout.write(`round ${k}\n`);
  }
}

async function rollback(engine: Engine, turnId: string): Promise<void> {
  process.stdout.write('rolling\n');
  const result = await engine.rollback(turnId);
  process.stdout.write(`done ${result.ok}\n`);
  await engine.close();
}

async function pack(engine: Engine): Promise<void> {
  process.stdout.write('packing\n');
  await engine.settled();
  process.stdout.write('packed\n');
  await engine.close();
}

async function main(): Promise<void> {
  // Never outlive a test that forgot to kill us.
  setTimeout(() => process.exit(3), 60_000).unref();
  const args = JSON.parse(process.argv[2] ?? '{}') as Args;
  const engine = await openEngine({ workspace: args.workspace, dataDir: args.dataDir });
  process.stdout.write('open\n');
  if (args.mode === 'turn') await endlessTurn(engine);
  else if (args.mode === 'pack') await pack(engine);
  else await rollback(engine, args.turnId as string);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
