// Serves the built console (dist/) over the real HTTP layer with the sample engine:
//   npm run build && npx tsx e2e/dev/preview-server.ts [port]
import { startServer } from '../../server/http/server.js';
import { createSampleEngine } from './sample-engine.js';

const server = await startServer({
  engine: createSampleEngine(),
  port: Number(process.argv[2] ?? 0),
  token: 'preview-token',
  agentToken: 'preview-agent-token',
  log: { info: () => {}, error: (message) => process.stderr.write(`${message}\n`) },
});
process.stdout.write(`${server.url}\n`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
