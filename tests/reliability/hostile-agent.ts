// One kind of call, over and over, against a workspace whose `f.txt` a second process keeps
// swapping with a FIFO (or growing, or making unreadable): run in its own process so that a
// call that blocks the thread for good is caught by its parent's deadline, not by a hung suite.
// Makes calls for <ms> milliseconds, then prints one JSON line: how many answered, the slowest,
// and the codes of those that failed.
// Usage: node --import tsx tests/reliability/hostile-agent.ts <case> <workspace> <dataDir> <ms>
//   read: fs/read of f.txt; exec: a command's before and after scans; before-mutate: of f.txt.
import { openEngine } from '../../server/engine/index.js';

const [which, workspace, dataDir, msArg] = process.argv.slice(2);
const forMs = Number(msArg);
const engine = await openEngine({ workspace, dataDir, scopes: ['*'] });
const sessionId = 'hostile';
const codes: Record<string, number> = {};
let answered = 0;
const started = Date.now();
let slowestMs = 0;

for (let i = 0; Date.now() - started < forMs; i++) {
  if (i % 20 === 0) await engine.input({ sessionId, platform: 'webui', sessionType: 'chat', content: `${which} ${i}` });
  const t0 = Date.now();
  try {
    if (which === 'read') await engine.storage.readFile('workspace:/f.txt', { maxBytes: 16 << 20 });
    else if (which === 'exec') {
      const { execId } = await engine.exec({ sessionId, tool: 'Bash', command: `true ${i}` });
      if (execId) await engine.execEnd({ sessionId, execId });
    } else if (which === 'before-mutate') {
      // A new turn each time, so each call records (reads) the path again.
      await engine.input({ sessionId, platform: 'webui', sessionType: 'chat', content: `${which} ${i}` });
      await engine.beforeMutate({ sessionId, op: 'write', uri: 'workspace:/f.txt' });
    } else throw new Error(`unknown case ${which}`);
  } catch (e) {
    const code = (e as { code?: string }).code ?? 'none';
    codes[code] = (codes[code] ?? 0) + 1;
  }
  answered++;
  slowestMs = Math.max(slowestMs, Date.now() - t0);
}
await engine.turnEnd({ sessionId });
await engine.close();
process.stdout.write(JSON.stringify({ answered, codes, slowestMs, totalMs: Date.now() - started }) + '\n');
