// Turns that exercise the console: folders, a rename, an image, a large file, a shell command.
import type { AgentClient } from './agent-client';

export const PNG_RED =
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGO4o6FBEmIY1TCqYfhqAAAyBCwQhvh37QAAAABJRU5ErkJggg==';
export const PNG_BLUE =
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGPQiLpDEmIY1TCqYfhqAABeaV4QTcmYsgAAAABJRU5ErkJggg==';

export function writeBase64(agent: AgentClient, sessionId: string, path: string, base64: string) {
  return agent.post('/api/agent/fs/write', {
    sessionId,
    uri: `workspace:/${path}`,
    content: base64,
    encoding: 'base64',
  });
}

export function rename(agent: AgentClient, sessionId: string, from: string, to: string) {
  return agent.post('/api/agent/fs/rename', { sessionId, from: `workspace:/${from}`, to: `workspace:/${to}` });
}

/** A TypeScript file of `lines` lines, with `changed` of them different per `variant`. */
export function largeSource(lines: number, variant: number, changed = 40): string {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) {
    const edited = variant > 0 && i % Math.floor(lines / changed) === 0;
    out.push(
      `export function step${i}(value: number): number { return value ${edited ? '*' : '+'} ${i}; } // line ${i}`,
    );
  }
  return `${out.join('\n')}\n`;
}

export async function seedProject(agent: AgentClient, sessionId: string): Promise<void> {
  await agent.turn(
    sessionId,
    'Scaffold the app with a logo and helpers',
    async () => {
      await agent.write(
        sessionId,
        'src/app.ts',
        'import { greet } from "./lib/greet";\n\nconsole.log(greet("world"));\n',
      );
      await agent.write(
        sessionId,
        'src/lib/greet.ts',
        'export function greet(name: string) {\n  return "Hello " + name;\n}\n',
      );
      await agent.write(sessionId, 'src/lib/util.ts', 'export const id = <T>(x: T) => x;\n');
      await agent.write(sessionId, 'README.md', '# Demo\n\nA small app.\n');
      await writeBase64(agent, sessionId, 'assets/logo.png', PNG_RED);
      await agent.write(
        sessionId,
        'assets/mark.svg',
        '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="7" fill="#2f5bd3"/></svg>\n',
      );
    },
    'Scaffolded.',
  );
  await agent.turn(
    sessionId,
    'Recolour the logo, rename util to identity and greet politely',
    async () => {
      await writeBase64(agent, sessionId, 'assets/logo.png', PNG_BLUE);
      await rename(agent, sessionId, 'src/lib/util.ts', 'src/lib/identity.ts');
      await agent.write(
        sessionId,
        'src/lib/greet.ts',
        'export function greet(name: string) {\n  return `Good morning, ${name}!`;\n}\n',
      );
      await agent.exec(sessionId, 'npm install --save left-pad');
    },
    'Done.',
  );
  await agent.turn(sessionId, 'Add the generated steps module', () =>
    agent.write(sessionId, 'src/steps.ts', largeSource(3000, 0)),
  );
  await agent.turn(sessionId, 'Tweak forty of the steps', () =>
    agent.write(sessionId, 'src/steps.ts', largeSource(3000, 1)),
  );
}
