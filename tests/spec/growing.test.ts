// A file that grows while it is read (an append racing a capture or a scan) is read only up to
// `maxFileSize`: past it, it is skipped as too-large and nothing of it is stored, whatever its
// size was at its lstat. The append is made by the filesystem seam's hook, just before the read.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { EngineFs } from '../../server/engine/index.js';
import {
  expectCode,
  makeSandbox,
  plant,
  runTurn,
  SESSION,
  who,
  ws,
  type Sandbox,
} from '../../server/testkit/engine-harness.js';

const LIMIT = 2 << 20;
/** Appended once the read begins: well past the limit. */
const GROWTH = Buffer.alloc(3 * LIMIT, 0x61);
/** One small file (read whole) and one over a part (read in chunks). */
const FILES = { 'small.bin': 'x'.repeat(100), 'medium.bin': 'y'.repeat((1 << 20) + 10) };

let sandbox: Sandbox;
const s = who();

beforeEach(async () => {
  sandbox = await makeSandbox();
  await plant(sandbox.workspace, { ...FILES, 'other.txt': 'other\n' });
});

/** An engine whose reads of the given files find them grown (once each). */
async function openGrowing(names: string[]) {
  const pending = new Set(names.map((n) => join(sandbox.workspace, n)));
  const fs = new EngineFs({
    beforeOp: (op, target) => {
      if ((op === 'readFile' || op === 'read') && pending.delete(target)) appendFileSync(target, GROWTH);
    },
  });
  return sandbox.open({ maxFileSize: LIMIT, fs });
}

describe('a file that grows past maxFileSize while it is read', () => {
  for (const name of Object.keys(FILES)) {
    it(`${name}, captured by a forced write: skipped as too-large, nothing of it stored`, async () => {
      const engine = await openGrowing([name]);
      const turnId = await runTurn(engine, () =>
        engine.storage.writeFile(ws(name), 'replaced\n', { ...s, force: true }),
      );
      const file = engine.getManifest(turnId).files.find((f) => f.uri === ws(name));
      expect(file?.skipped).toBe('too-large');
      expect(engine.getManifest(turnId).turn.skippedCount).toBe(1);
      expect(engine.storeStats().bytes).toBeLessThan(LIMIT);
    });

    it(`${name}, captured by a write that is not forced: refused with TOO_LARGE, nothing of it stored`, async () => {
      const engine = await openGrowing([name]);
      await engine.input({ sessionId: SESSION, platform: 'webui', sessionType: 'chat', content: 'write' });
      await expectCode(engine.storage.writeFile(ws(name), 'replaced\n', s), 'TOO_LARGE');
      expect(engine.storeStats().bytes).toBeLessThan(LIMIT);
    });

    it(`${name}, read by a command's before scan: listed as too-large, nothing of it stored`, async () => {
      const engine = await openGrowing([name]);
      await engine.input({ sessionId: SESSION, platform: 'webui', sessionType: 'chat', content: 'run' });
      const { execId } = await engine.exec({ ...s, tool: 'Bash', command: 'true' });
      expect(engine.storeStats().bytes).toBeLessThan(LIMIT);
      appendFileSync(join(sandbox.workspace, name), 'more');
      const end = await engine.execEnd({ ...s, execId: execId! });
      expect(end.skipped).toContainEqual({ uri: ws(name), reason: 'too-large' });
      expect(engine.storeStats().bytes).toBeLessThan(LIMIT);
    });
  }

  it('fs/read of a file that grows past its bound while read: TOO_LARGE', async () => {
    const engine = await openGrowing(['medium.bin']);
    await expectCode(engine.storage.readFile(ws('medium.bin'), { maxBytes: LIMIT }), 'TOO_LARGE');
  });
});
