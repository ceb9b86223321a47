// A child process for the SIGKILL runs: an agent that edits, commits and rolls back turns
// through the engine as fast as it can, until it is killed. Every file it writes carries
// versioned, self-checking content, so the parent can tell a whole file from a torn one.
// Versions of a file differ by a few lines, so the store keeps them as delta chains; the
// engine's clock runs two days a turn, so keepSessions prunes (a session active in the last
// day is never pruned) and the sweep removes bases that kept contents need.
// Usage: node --import tsx tests/reliability/sigkill-agent.ts <workspace> <dataDir> <seed>
import { openEngine } from '../../server/engine/index.js';
import { versionedContent } from './versioned-content.testutil.js';

const [workspace, dataDir, seedText] = process.argv.slice(2);
let seed = Number(seedText) || 1;
function random(n: number): number {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
}

let clock = Date.now() - 400 * 86_400_000;
const engine = await openEngine({ workspace, dataDir, scopes: ['*'], keepSessions: 3, keepDays: 0, now: () => clock });
process.stdout.write('ready\n');
let version = 1_000 * (Number(seedText) || 1);
for (let turn = 0; ; turn++) {
  clock += 2 * 86_400_000;
  const sessionId = `s${random(4)}`;
  const { turnId } = await engine.input({ sessionId, platform: 'webui', sessionType: 'chat', content: `turn ${turn}` });
  for (let k = 0; k < 1 + random(5); k++) {
    const name = `f${random(8)}.txt`;
    const dir = random(3) === 0 ? `d${random(3)}/` : '';
    const uri = `workspace:/${dir}${name}`;
    const action = random(10);
    try {
      if (action < 6) await engine.storage.writeFile(uri, versionedContent(name, ++version), { sessionId });
      else if (action < 8) await engine.storage.delete(uri, { sessionId });
      else await engine.storage.rename(uri, `workspace:/${dir}f${random(8)}.txt`, { sessionId });
    } catch (e) {
      // A delete or rename of a path that does not exist is the agent's own mistake, not the engine's.
      if ((e as { code?: string }).code !== 'FILE_NOT_FOUND' && (e as { code?: string }).code !== 'ENOENT') throw e;
    }
  }
  await engine.turnEnd({ sessionId });
  if (turnId && random(3) === 0) {
    try {
      await engine.rollback(turnId, { force: random(2) === 0 });
    } catch (e) {
      if ((e as { code?: string }).code !== 'CONFLICT') throw e;
    }
  }
}
