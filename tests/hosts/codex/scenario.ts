// The session the real-CLI suite has Codex work through: the start tree, and the fake API's
// script of four prompts (apply_patch edits, shell commands with a failing one, one that runs past
// its yield time and an MCP tool, a sub-agent, a turn the API refuses).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NFD_NOTE, setUpProject } from '../../../server/testkit/hosts/scenario.js';
import type { Script } from './fake-api.js';

export const PROMPTS = {
  files: 'Turn 1: add a helper and use it\nwith care',
  shell: '\n\nTurn 2: tidy up in the shell',
  subagent: 'Turn 3: ask a sub-agent to fix the notes',
  failure: 'Turn 4: this one fails',
} as const;
const SUBTASK = 'SUBTASK: fix the NFD note';

export async function setUpWorkspace(ws: string): Promise<void> {
  await setUpProject(ws);
  await writeFile(join(ws, 'docs', 'guide.md'), '# Guide\nstep one\n');
  await writeFile(join(ws, 'docs', 'obsolete.txt'), 'gone soon\n');
  await writeFile(join(ws, NFD_NOTE), 'déjà vu\n');
}

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');
const shell = (cmd: string) => ({ call: 'exec_command', args: { cmd } });
/** The agent ids `spawn_agent` answered in this conversation. */
const spawned = (outputs: string[]) =>
  outputs.flatMap((output) => {
    try {
      const { agent_id: id } = JSON.parse(output) as { agent_id?: unknown };
      return typeof id === 'string' ? [id] : [];
    } catch {
      return [];
    }
  });

/** The id of the command session Codex left running (`Process running with session ID 123`). */
const runningSession = (outputs: string[]) =>
  Number(/Process running with session ID (\d+)/.exec(outputs.join('\n'))?.[1] ?? 0);

export function script(): Script {
  return {
    'Turn 1:': [
      {
        custom: 'apply_patch',
        input: patch(
          '*** Add File: src/helper.ts',
          '+export const shout = (s: string) => s.toUpperCase();',
          '*** Update File: src/app.ts',
          '@@',
          '-export const greeting = "hello";',
          '+export const greeting = "hello, world";',
          '*** Update File: docs/guide.md',
          '*** Move to: docs/guide-v2.md',
          '@@',
          ' # Guide',
          '-step one',
          '+step two',
          '*** Delete File: docs/obsolete.txt',
        ),
      },
      { text: 'Turn 1 done: helper added.' },
    ],
    'Turn 2:': [
      shell("sed -i 's/debug/release/' src/util.ts"),
      shell('rm scratch.txt && mv docs/old.md docs/renamed.md'),
      shell('mkdir -p gen && cat > gen/config.json <<\'EOF\'\n{"release": true}\nEOF'),
      shell('cat missing.txt'),
      { custom: 'apply_patch', input: patch('*** Update File: missing.txt', '@@', '-a', '+b') },
      { search: 'files write' },
      { call: 'write', namespace: 'mcp__files', args: { path: 'mcp/out.txt', text: 'written by an MCP tool\n' } },
      // Still running when its yield time is up: Codex answers with a session id to poll.
      { call: 'exec_command', args: { cmd: 'sleep 1; echo late > gen/late.txt', yield_time_ms: 250 } },
      {
        call: 'write_stdin',
        args: (outputs) => ({ session_id: runningSession(outputs), chars: '', yield_time_ms: 10_000 }),
      },
      { text: 'Turn 2 done.' },
    ],
    'Turn 3:': [
      { call: 'spawn_agent', namespace: 'multi_agent_v1', args: { message: SUBTASK } },
      {
        call: 'wait_agent',
        namespace: 'multi_agent_v1',
        args: (outputs) => ({ targets: spawned(outputs), timeout_ms: 60_000 }),
      },
      { text: 'Turn 3 done: the sub-agent fixed it.' },
    ],
    [SUBTASK]: [
      { custom: 'apply_patch', input: patch(`*** Update File: ${NFD_NOTE}`, '@@', '-déjà vu', '+déjà vu again') },
      shell("printf 'export const sub = 1;\\n' > src/sub.ts"),
      { text: 'Sub-agent done.' },
    ],
    'Turn 4:': [{ error: { status: 400, message: 'the scripted API refuses this turn' } }],
  };
}
