// The shared set-up of the terminal commands' tests: one real service per test file, and for
// each test a workspace and a session of its own (a session belongs to the workspace of its
// first event), with helpers that act as the agent and run the commands there.
import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { treeAsText } from '../../testkit/tree.js';
import { agentTurn } from './agent-turn.js';
import { startRealService, type TestService } from './real-service.js';
import { runTerminal } from './run-terminal.js';

export interface TerminalFixture {
  readonly workspace: string;
  readonly session: string;
  readonly env: NodeJS.ProcessEnv;
  readonly service: TestService;
  /** One agent turn in this test's workspace (the session given, or this test's own). */
  agentTurn(prompt: string, changes: Record<string, string | null>, sessionId?: string): Promise<string>;
  agentCall(route: string, body: Record<string, unknown>): Promise<any>;
  run(
    command: Parameters<typeof runTerminal>[0],
    args: string[],
    extra?: { answers?: string[]; colour?: boolean; cwd?: string },
  ): ReturnType<typeof runTerminal>;
  tree(): ReturnType<typeof treeAsText>;
}

export function useTerminalFixture(name: string): TerminalFixture {
  let base = '';
  let service: TestService;
  let count = 0;
  const state = { workspace: '', session: '' };
  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), `turnback-${name}-`)));
    service = await startRealService(base);
  }, 40_000);
  afterAll(async () => {
    await service?.close();
    await rm(base, { recursive: true, force: true });
  });
  beforeEach(async () => {
    state.workspace = path.join(base, `workspace-${++count}`);
    state.session = `session-${name}-${count}`;
    await mkdir(path.join(state.workspace, 'src'), { recursive: true });
  });
  return {
    get workspace() {
      return state.workspace;
    },
    get session() {
      return state.session;
    },
    get env() {
      return service.env;
    },
    get service() {
      return service;
    },
    agentTurn: (prompt, changes, sessionId = state.session) =>
      agentTurn(service, state.workspace, sessionId, prompt, changes),
    agentCall: (route, body) => service.agent(route, body, state.workspace),
    run: (command, args, extra = {}) =>
      runTerminal(command, args, {
        cwd: extra.cwd ?? state.workspace,
        env: service.env,
        answers: extra.answers,
        colour: extra.colour,
      }),
    tree: () => treeAsText(state.workspace),
  };
}
