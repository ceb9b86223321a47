// The server under load, in its own process so its RSS and open file descriptors can be read
// from /proc without the load client's own sockets mixed in.
// Usage: node --import tsx tests/reliability/load-server.ts <workspace> <dataDir>
// Prints one JSON line {port, token, agentToken, pid}; stops on SIGTERM.
import { openEngine } from '../../server/engine/index.js';
import { startServer } from '../../server/http/server.js';

const [workspace, dataDir] = process.argv.slice(2);
const engine = await openEngine({ workspace, dataDir, scopes: ['*'], keepSessions: 0 });
const server = await startServer({
  engine,
  port: 0,
  token: 'load-console-token',
  agentToken: 'load-agent-token',
  log: { info: () => {}, error: (m) => process.stderr.write(`${m}\n`) },
});
process.stdout.write(
  JSON.stringify({ port: server.port, token: server.token, agentToken: server.agentToken, pid: process.pid }) + '\n',
);
process.on('SIGTERM', () => {
  void server
    .close()
    .then(() => engine.close())
    .then(() => process.exit(0));
});
