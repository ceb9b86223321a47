// Run as an unprivileged user (root ignores permission bits): one agent write against real
// permission errors. Prints one JSON line with what the caller saw and what is on disk.
// Usage: node --import tsx tests/reliability/permission-agent.ts <case> <workspace> <dataDir>
//   store-readonly: the store folder cannot be written while the write is captured.
//   file-unreadable: the file to be overwritten cannot be read.
import { chmod, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../server/engine/index.js';

const [which, workspace, dataDir] = process.argv.slice(2);
const engine = await openEngine({ workspace, dataDir, scopes: ['*'] });
const sessionId = 'perm';
const { turnId } = await engine.input({ sessionId, platform: 'webui', sessionType: 'chat', content: which });
if (which === 'store-readonly') await chmod(join(dataDir, 'store'), 0o555);
if (which === 'file-unreadable') await chmod(join(workspace, 'a.txt'), 0o000);

let errorCode: string | null = null;
try {
  await engine.storage.writeFile('workspace:/a.txt', 'agent text\n', { sessionId });
} catch (e) {
  errorCode = (e as { code?: string }).code ?? 'none';
}
await chmod(join(dataDir, 'store'), 0o755);
await chmod(join(workspace, 'a.txt'), 0o644);
await engine.turnEnd({ sessionId });
const skipped = engine
  .getManifest(turnId!)
  .files.filter((f) => f.skipped)
  .map((f) => ({ uri: f.uri, skipped: f.skipped }));
const rollback = await engine.rollback(turnId!);
await engine.close();
process.stdout.write(
  JSON.stringify({
    errorCode,
    skipped,
    rollback: { ok: rollback.ok, errors: rollback.errors.map((e) => e.code) },
    content: await readFile(join(workspace, 'a.txt'), 'utf8'),
  }) + '\n',
);
