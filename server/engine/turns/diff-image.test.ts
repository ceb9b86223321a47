import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSandbox, openEngineOn, type Sandbox } from '../../testkit/sandbox.js';

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

const S = { sessionId: 's1' };
const PNG_A = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');
const PNG_B = Buffer.from('89504e470d0a1a0a0000000d4948445200000002', 'hex');

describe('diff of an image', () => {
  it('carries the bytes of binary PNG sides, and none for other binary files', async () => {
    const engine = await openEngineOn(box);
    try {
      await engine.input({ sessionId: 's1', platform: 'webui', sessionType: 'chat', content: 'draw' });
      await engine.storage.writeFile('workspace:/logo.PNG', PNG_A, S);
      await engine.storage.writeFile('workspace:/data.bin', PNG_A, S);
      const { turnId } = await engine.turnEnd(S);
      await engine.input({ sessionId: 's1', platform: 'webui', sessionType: 'chat', content: 'redraw' });
      await engine.storage.writeFile('workspace:/logo.PNG', PNG_B, S);
      const { turnId: second } = await engine.turnEnd(S);

      const created = await engine.diff(turnId!, 'workspace:/logo.PNG');
      expect(created.before.image).toBeUndefined();
      expect(created.after).toMatchObject({
        binary: true,
        image: { type: 'image/png', base64: PNG_A.toString('base64') },
      });
      const changed = await engine.diff(second!, 'workspace:/logo.PNG');
      expect(changed.before.image?.base64).toBe(PNG_A.toString('base64'));
      expect(changed.after.image?.base64).toBe(PNG_B.toString('base64'));
      expect((await engine.diff(turnId!, 'workspace:/data.bin')).after.image).toBeUndefined();
    } finally {
      await engine.close();
    }
  });
});
