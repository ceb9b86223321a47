// Run as an unprivileged user (root ignores permission bits): a command leaves a file or a
// folder the engine may not read (mode 000), then the turn is rolled back. Prints one JSON line:
// what exec-end and the turn said was skipped, what the rollback answered, and what is on disk.
// Usage: node --import tsx tests/reliability/unreadable-agent.ts <case> <workspace> <dataDir>
//   file-000: the command changes a.txt, then makes it 000.
//   dir-000: the command changes d/f.txt, then makes the folder d 000.
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEngine } from '../../server/engine/index.js';

const [which, workspace, dataDir] = process.argv.slice(2);
const engine = await openEngine({ workspace, dataDir, scopes: ['*'] });
const sessionId = 'unreadable';
const { turnId } = await engine.input({ sessionId, platform: 'webui', sessionType: 'chat', content: which });
const { execId } = await engine.exec({ sessionId, tool: 'Bash', command: which });
const target = which === 'file-000' ? join(workspace, 'a.txt') : join(workspace, 'd');
await writeFile(which === 'file-000' ? target : join(target, 'f.txt'), "the command's\n");
await chmod(target, 0o000);
const end = await engine.execEnd({ sessionId, execId: execId! });
await engine.turnEnd({ sessionId });
const { turn, files } = engine.getManifest(turnId!);
const rollback = await engine.rollback(turnId!);
const mode = (await stat(target)).mode & 0o777;
await chmod(target, which === 'file-000' ? 0o644 : 0o755).catch(() => {});
await engine.close();
process.stdout.write(
  JSON.stringify({
    execSkipped: end.skipped,
    turnSkipped: {
      count: turn.skippedCount,
      files: files.filter((f) => f.skipped).map((f) => ({ uri: f.uri, skipped: f.skipped })),
    },
    rollback: {
      ok: rollback.ok,
      restored: rollback.restored,
      errors: rollback.errors.map((e) => ({ uri: e.uri, code: e.code })),
    },
    mode,
    content: await readFile(which === 'file-000' ? target : join(target, 'f.txt'), 'utf8'),
  }) + '\n',
);
