// Which source files one request's code runs through: V8 precise coverage (node:inspector)
// around a single HTTP request, after a warm-up, for a captured write (the agent's fs/write)
// and a rollback. The count says how much of the house a reader crosses to follow each path.
// Run: npx tsx bench/trace.ts  (prints both lists and their counts; `--json` for the lists only)
import { Session } from 'node:inspector/promises';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openEngine } from '../server/engine/index.js';
import { startServer } from '../server/http/server.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(REPO, 'server') + path.sep;
const CONSOLE = 'console-token-for-the-trace';
const AGENT = 'agent-token-for-the-trace';
const SESSION = 'trace-1';

interface Coverage {
  result: { url: string; functions: { ranges: { count: number }[] }[] }[];
}

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'turnback-trace-'));
  process.env.HOME = root;
  process.env.XDG_STATE_HOME = path.join(root, 'state');
  const workspace = path.join(root, 'ws');
  await mkdir(workspace);
  await writeFile(path.join(workspace, 'app.ts'), 'export const a = 1;\n');
  const engine = await openEngine({ workspace, dataDir: path.join(root, 'data'), scopes: ['webui:*'] });
  const server = await startServer({
    engine,
    port: 0,
    token: CONSOLE,
    agentToken: AGENT,
    distDir: path.join(root, 'no-dist'),
    log: { info() {}, error() {} },
  });
  const post = async (route: string, token: string, body: unknown) => {
    const response = await fetch(`http://127.0.0.1:${server.port}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status !== 200) throw new Error(`${route}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const turn = async (n: number) => {
    const input = await post('/api/agent/input', AGENT, {
      sessionId: SESSION,
      platform: 'webui',
      sessionType: 'chat',
      content: `turn ${n}`,
    });
    return input.turnId as string;
  };
  const write = (n: number) =>
    post('/api/agent/fs/write', AGENT, {
      sessionId: SESSION,
      uri: 'workspace:/app.ts',
      content: `export const a = ${n};\n`,
    });
  const endTurn = () => post('/api/agent/turn-end', AGENT, { sessionId: SESSION });
  const rollback = (turnId: string) => post(`/api/turns/${turnId}/rollback`, CONSOLE, {});

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  const traced = async (run: () => Promise<unknown>): Promise<string[]> => {
    await session.post('Profiler.takePreciseCoverage'); // resets the counters
    await run();
    const { result } = (await session.post('Profiler.takePreciseCoverage')) as Coverage;
    return result
      .filter((script) => script.functions.some((f) => f.ranges[0]?.count > 0))
      .map((script) => (script.url.startsWith('file://') ? fileURLToPath(script.url) : script.url))
      .filter((file) => file.startsWith(SERVER))
      .map((file) => path.relative(REPO, file))
      .sort();
  };

  try {
    // Warm-up: every path taken once, so what is measured is a request, not a module's first load.
    for (let n = 1; n <= 2; n++) {
      const id = await turn(n);
      await write(n);
      await endTurn();
      await engine.settled();
      await rollback(id);
      await engine.settled();
    }
    const id = await turn(3);
    const writeFiles = await traced(() => write(3));
    await endTurn();
    await engine.settled();
    const rollbackFiles = await traced(() => rollback(id));
    await engine.settled();
    if (process.argv.includes('--json')) {
      console.log(JSON.stringify({ write: writeFiles, rollback: rollbackFiles }, null, 2));
    } else {
      console.log(`captured write (POST /api/agent/fs/write): ${writeFiles.length} files`);
      for (const f of writeFiles) console.log(`  ${f}`);
      console.log(`rollback (POST /api/turns/:turnId/rollback): ${rollbackFiles.length} files`);
      for (const f of rollbackFiles) console.log(`  ${f}`);
    }
  } finally {
    await session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
    await server.close();
    await engine.close();
    await rm(root, { recursive: true, force: true });
  }
}

await main();
