// A real turnback server (engine + HTTP, in-process, port 0) on a temp workspace, registered
// where the hook looks for it, with a small console-token client for checking what it recorded.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fsTreeWatcher, openEngine } from '../../../engine/index.js';
import type { Engine } from '../../../engine/api.js';
import { startServer, type RunningServer } from '../../../http/server.js';
import { hookPathOf } from '../../core/hook-path.js';
import { CLAUDE_CODE_HOOK_PATH } from '../event.js';
import { claudeCodeRoutes } from '../receive/route.js';
import { writeServiceFiles } from './service-entry.js';

export interface HookTestServer {
  root: string;
  workspace: string;
  /** Env for the hook process: its XDG_STATE_HOME holds service.json, the agent token and hook.log. */
  env: NodeJS.ProcessEnv;
  server: RunningServer;
  engine: Engine;
  /** The server's home folder: Claude Code's transcripts are read only under its `.claude/projects/`. */
  home: string;
  /** What the payload helpers need of a session in the workspace: its cwd and transcript path. */
  context: { cwd: string; transcriptPath: string };
  api<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; json: T }>;
  /** POSTs a raw Claude Code hook event to the hook route with the agent token (or `token`). */
  postHook<T = any>(event: unknown, token?: string): Promise<{ status: number; json: T }>;
  /** POSTs a raw hook event of another host to its route (`/api/agent/hook/<host>`). */
  postHostHook<T = any>(host: string, event: unknown): Promise<{ status: number; json: T }>;
  close(): Promise<void>;
}

export interface HookTestServerOptions {
  /** The workspace folder's name (default `workspace`). */
  workspaceName?: string;
  /** Files the workspace starts with: relative path → content (folders are made). */
  files?: Record<string, string>;
  /** The receiver's waits for subagents (core/receiver.ts), shortened for tests. */
  subagentWaitMs?: number;
  subagentPromptWaitMs?: number;
  /** Scans follow a filesystem watcher, as the service's do (default: none, every scan full). */
  watcher?: boolean;
}

export async function startHookTestServer(options: HookTestServerOptions = {}): Promise<HookTestServer> {
  const root = await mkdtemp(join(tmpdir(), 'turnback-hook-'));
  const workspace = join(root, options.workspaceName ?? 'workspace');
  const stateHome = join(root, 'state');
  const dist = join(root, 'dist');
  const home = join(root, 'home');
  const projects = join(home, '.claude', 'projects', '-workspace');
  await mkdir(projects, { recursive: true });
  await mkdir(workspace);
  await mkdir(dist);
  for (const [path, content] of Object.entries(options.files ?? {})) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), content);
  }
  const engine = await openEngine({
    workspace,
    dataDir: join(root, 'data'),
    scopes: ['webui:*', 'claude-code:*', 'cursor:*', 'antigravity:*'],
    ...(options.watcher ? { watcher: fsTreeWatcher } : {}),
  });
  // The hooks talk over the service's socket in the state dir, as to the person's service.
  await mkdir(join(stateHome, 'turnback'), { recursive: true, mode: 0o700 });
  const server = await startServer({
    engine,
    port: 0,
    socketPath: join(stateHome, 'turnback', 'service.sock'),
    distDir: dist,
    routes: claudeCodeRoutes({
      transcripts: { home, env: {} },
      subagentWaitMs: options.subagentWaitMs,
      subagentPromptWaitMs: options.subagentPromptWaitMs,
      // Not the person's own agent-notices.json: agents are told, as by default.
      tellsAgents: () => true,
    }),
    log: { info: () => {}, error: (message) => process.stderr.write(`${message}\n`) },
  });
  await writeServiceFiles(stateHome, { port: server.port, agentToken: server.agentToken });

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.origin}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${server.token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: await response.json() };
  };

  const postHook = (event: unknown, token = server.agentToken) => postTo(CLAUDE_CODE_HOOK_PATH, event, token);
  const postHostHook = (host: string, event: unknown) => postTo(hookPathOf(host), event, server.agentToken);
  const postTo = async (path: string, event: unknown, token: string) => {
    const response = await fetch(`${server.origin}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: typeof event === 'string' ? event : JSON.stringify(event),
    });
    return { status: response.status, json: await response.json() };
  };

  return {
    root,
    workspace,
    home,
    env: { XDG_STATE_HOME: stateHome },
    server,
    engine,
    api,
    postHook,
    postHostHook,
    context: { cwd: workspace, transcriptPath: join(projects, 'transcript.jsonl') },
    close: async () => {
      await server.close();
      await engine.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
