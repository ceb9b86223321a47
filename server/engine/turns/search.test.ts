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
const input = (content: string, sessionId = 's1') => ({ sessionId, platform: 'webui', sessionType: 'chat', content });

describe('searchTurns', () => {
  it('finds turns by a path they changed or by their prompt text, in any case, and nothing else', async () => {
    const engine = await openEngineOn(box);
    try {
      await engine.input(input('Add the login form'));
      await engine.storage.writeFile('workspace:/src/Login.tsx', 'form\n', S);
      await engine.input(input('Fix the docs\nand mention 100%_done in the README'));
      await engine.storage.writeFile('workspace:/docs/readme.md', 'docs\n', S);
      await engine.input(input('Unrelated'));
      await engine.storage.writeFile('workspace:/other.txt', 'x\n', S);
      await engine.turnEnd(S);
      await engine.input(input('login in another session', 's2'));
      await engine.turnEnd({ sessionId: 's2' });

      const titles = (text: string) => engine.searchTurns('s1', text).map((turn) => turn.title);
      expect(titles('login')).toEqual(['Add the login form']);
      expect(titles('DOCS/')).toEqual(['Fix the docs']);
      // The whole prompt counts, not just its first line; % and _ are plain characters.
      expect(titles('100%_done')).toEqual(['Fix the docs']);
      expect(titles('100%x')).toEqual([]);
      expect(titles('t')).toEqual(['Add the login form', 'Fix the docs', 'Unrelated']);
      expect(engine.searchTurns('s1', 't', { limit: 2 }).map((turn) => turn.number)).toEqual([2, 3]);
      expect(engine.searchTurns('s1', 't', { before: 3 }).map((turn) => turn.number)).toEqual([1, 2]);
      expect(() => engine.searchTurns('nope', 'x')).toThrow(expect.objectContaining({ code: 'SESSION_NOT_FOUND' }));
    } finally {
      await engine.close();
    }
  });

  it('finds turns by the text of a command they ran', async () => {
    const engine = await openEngineOn(box, { scopes: ['*'] });
    try {
      await engine.input(input('Run the build'));
      const { execId } = await engine.exec({ ...S, tool: 'Bash', command: 'npm run build -- --Watch' });
      await engine.execEnd({ ...S, execId: execId! });
      await engine.input(input('Something else'));
      await engine.turnEnd(S);
      expect(engine.searchTurns('s1', '--watch').map((turn) => turn.title)).toEqual(['Run the build']);
    } finally {
      await engine.close();
    }
  });

  it('answers within a few milliseconds at 10,000 turns', async () => {
    const engine = await openEngineOn(box);
    try {
      for (let n = 1; n <= 10_000; n++)
        await engine.input(input(n === 4321 ? 'Rename the needle module' : `Request number ${n}`));
      await engine.turnEnd(S);
      const started = performance.now();
      const found = engine.searchTurns('s1', 'needle');
      const elapsed = performance.now() - started;
      expect(found.map((turn) => turn.number)).toEqual([4321]);
      expect(elapsed).toBeLessThan(250);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
