// A hostile workspace, driven for <ms> milliseconds: each round, a "command" replaces files with
// FIFOs, a socket and (as root) a device, makes files and a folder 000, while a second process
// keeps growing a file past maxFileSize; then fs writes over special files, a before-mutate of
// the growing file, the turn's end and a forced rollback. Run in its own process so a call that
// blocks for good is caught by its parent's deadline. Prints one JSON line: calls made, the
// slowest and which it was, the peak RSS, the store's bytes (and grow.bin's share of them), and
// every inconsistency found in what was reported.
// Usage: node --import tsx tests/reliability/hostile-workspace-agent.ts <workspace> <dataDir> <ms> <maxFileSize>
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { openEngine } from '../../server/engine/index.js';
import type { FileChange, State } from '../../server/protocol.js';

const [workspace, dataDir, msArg, maxArg] = process.argv.slice(2);
const forMs = Number(msArg);
const maxFileSize = Number(maxArg);
const engine = await openEngine({ workspace, dataDir, scopes: ['*'], maxFileSize });
const sessionId = 'hostile';
const s = { sessionId };
const ws = (rel: string) => `workspace:/${rel}`;
const isRoot = process.getuid?.() === 0;

let calls = 0;
let slowestMs = 0;
let slowestCall = '';
let peakRss = 0;
const problems: string[] = [];
const codes: Record<string, number> = {};

/** Times one call; a coded failure is an answer, an uncoded one a problem. */
async function call<T>(name: string, run: () => Promise<T>): Promise<T | null> {
  const t0 = Date.now();
  try {
    return await run();
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (typeof code === 'string' && /^[A-Z_]+$/.test(code))
      codes[`${name}:${code}`] = (codes[`${name}:${code}`] ?? 0) + 1;
    else problems.push(`${name}: uncoded ${(e as Error).stack}`);
    return null;
  } finally {
    calls++;
    const ms = Date.now() - t0;
    if (ms > slowestMs) [slowestMs, slowestCall] = [ms, name];
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
}

/** A captured state: none, not a file, or a file whose content is kept. */
const kept = (state: State) => state === null || state.type !== 'file' || state.hash !== '';

/**
 * grow.bin, past the limit at exec-end, may be small again at the turn's end (the grower starts
 * over): the turn's file tells the state read at its commit, and both its states are kept then.
 */
const keptSince = (file: FileChange) =>
  file.uri === ws('grow.bin') && !file.skipped && kept(file.before) && kept(file.after) && file.after !== null;

const servers: net.Server[] = [];
async function hostileCommand(round: number): Promise<void> {
  await rm(join(workspace, 'reg.txt'), { force: true });
  execFileSync('mkfifo', [join(workspace, 'reg.txt')]);
  await rm(join(workspace, 'sock'), { force: true });
  const server = net.createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(join(workspace, 'sock'), resolve));
  if (isRoot) {
    await rm(join(workspace, 'dev'), { force: true });
    execFileSync('mknod', [join(workspace, 'dev'), 'c', '1', '3']);
  }
  await writeFile(join(workspace, 'locked.txt'), `round ${round}\n`).catch(() => {});
  await chmod(join(workspace, 'locked.txt'), 0o000).catch(() => {});
  await mkdir(join(workspace, 'closed'), { recursive: true }).catch(() => {});
  await writeFile(join(workspace, 'closed', 'inner.txt'), `round ${round}\n`).catch(() => {});
  await chmod(join(workspace, 'closed'), 0o000).catch(() => {});
}

const started = Date.now();
for (let round = 0; Date.now() - started < forMs; round++) {
  const begun = await call('input', () =>
    engine.input({ ...s, platform: 'webui', sessionType: 'chat', content: `round ${round}` }),
  );
  const turnId = begun?.turnId;
  const exec = await call('exec', () => engine.exec({ ...s, tool: 'Bash', command: `hostile ${round}` }));
  await hostileCommand(round);
  const end = exec?.execId ? await call('exec-end', () => engine.execEnd({ ...s, execId: exec.execId! })) : null;
  await call('fs/write', () => engine.storage.writeFile(ws('sock'), 'a file again\n', { ...s, force: true }));
  await call('before-mutate', () => engine.beforeMutate({ ...s, op: 'write', uri: ws('grow.bin') }));
  await call('fs/read', () => engine.storage.readFile(ws('grow.bin'), { maxBytes: maxFileSize }));
  await call('turn-end', () => engine.turnEnd(s));
  for (const server of servers.splice(0)) server.close();
  // Give the folder back to the person so the next round can go on; the rollback must cope either way.
  await chmod(join(workspace, 'closed'), 0o755).catch(() => {});
  if (!turnId) continue;
  if (end) {
    const uris = end.skipped.map((k) => k.uri);
    if (new Set(uris).size !== uris.length)
      problems.push(`round ${round}: exec-end lists a path twice: ${uris.join(', ')}`);
    const { turn, files } = engine.getManifest(turnId);
    for (const k of end.skipped) {
      const file = files.find((f) => f.uri === k.uri);
      if (file && k.reason !== 'concurrent' && file.skipped !== k.reason && !keptSince(file))
        problems.push(
          `round ${round}: exec-end skips ${k.uri} (${k.reason}), the turn says ${file.skipped ?? 'nothing'}: ${JSON.stringify(file)}`,
        );
    }
    if (turn.skippedCount !== files.filter((f) => f.skipped).length)
      problems.push(
        `round ${round}: skippedCount ${turn.skippedCount} for ${files.filter((f) => f.skipped).length} skipped files`,
      );
    for (const f of files)
      if (
        f.after?.type === 'file' &&
        ['reg.txt', 'sock', 'dev'].includes(f.uri.slice('workspace:/'.length)) &&
        f.after.hash === ''
      )
        problems.push(`round ${round}: ${f.uri} shown as a file`);
  }
  const result = await call('rollback', () => engine.rollback(turnId, { force: true }));
  if (result) {
    const seen = new Map<string, number>();
    for (const uri of [...result.restored, ...result.deleted, ...result.unchanged, ...result.errors.map((e) => e.uri)])
      seen.set(uri, (seen.get(uri) ?? 0) + 1);
    for (const [uri, n] of seen) if (n > 1) problems.push(`round ${round}: the rollback reports ${uri} ${n} times`);
    for (const r of result.replaced ?? [])
      if (!result.restored.includes(r.uri)) problems.push(`round ${round}: ${r.uri} replaced but not restored`);
  }
}
const store = engine.storeStats();
await engine.close();
/**
 * grow.bin's share: every state of it read below the limit is kept, and a read that races the
 * grower's append can catch it at any size, so their number grows with the load. It is the only
 * file here over 64 KiB.
 */
const db = new Database(join(dataDir, 'store', 'turnback.db'), { readonly: true });
const large = db.prepare('SELECT size FROM contents WHERE hash IS NOT NULL AND size > 65536').all() as {
  size: number;
}[];
db.close();
process.stdout.write(
  JSON.stringify({
    calls,
    slowestMs,
    slowestCall,
    peakRss,
    storeBytes: store.bytes,
    growerBytes: large.reduce((sum, row) => sum + row.size, 0),
    growerLargest: Math.max(0, ...large.map((row) => row.size)),
    problems,
    codes,
    totalMs: Date.now() - started,
  }) + '\n',
);
