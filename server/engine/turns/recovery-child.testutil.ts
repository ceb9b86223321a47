// Child process for recovery tests: opens the engine, records a turn with a write, leaves a
// temp file behind in the workspace, and exits without closing (as a crash would).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openEngine } from '../index.js';

const [workspace, dataDir] = process.argv.slice(2);
const engine = await openEngine({ workspace, dataDir, scopes: ['*'] });
await engine.input({ sessionId: 's1', platform: 'webui', sessionType: 'chat', content: 'crashing turn' });
await engine.storage.writeFile('workspace:/a.txt', 'half way', { sessionId: 's1' });
await writeFile(path.join(workspace, '.turnback-tmp-999-deadbeef'), 'partial');
process.exit(0);
