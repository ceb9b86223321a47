// Which workspace each agent session's latest event went to, kept in `sessions.json` so an event
// without a cwd finds it across a service restart (an event with one goes to its cwd's). Bounded: the
// oldest entries go first.
import { statePath } from '../state-dir.js';
import { readPrivateFile, writePrivateFile } from './private-file.js';

const MAX_SESSIONS = 5_000;

export class SessionMap {
  private readonly map = new Map<string, string>();
  private readonly file: string;

  /** `file`: another service's own `sessions.json` (`serve --data`), else the per-user one. */
  constructor(env: NodeJS.ProcessEnv = process.env, file: string = statePath('sessions', env)) {
    this.file = file;
    try {
      const raw = JSON.parse(readPrivateFile(this.file)) as unknown;
      if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
        for (const [session, workspace] of Object.entries(raw))
          if (typeof workspace === 'string') this.map.set(session, workspace);
      }
    } catch {
      // none yet, or damaged: sessions are matched again by their next event's cwd
    }
  }

  workspaceOf(sessionId: string): string | undefined {
    return this.map.get(sessionId);
  }

  set(sessionId: string, workspaceId: string): void {
    if (this.map.get(sessionId) === workspaceId) return;
    this.map.set(sessionId, workspaceId);
    while (this.map.size > MAX_SESSIONS) this.map.delete(this.map.keys().next().value as string);
    // Written at once: the session's next event may come from a restarted service.
    this.flush();
  }

  /** Drops every session of a forgotten workspace: their next event places them again. */
  forgetWorkspace(workspaceId: string): void {
    const before = this.map.size;
    for (const [session, workspace] of this.map) if (workspace === workspaceId) this.map.delete(session);
    if (this.map.size !== before) this.flush();
  }

  flush(): void {
    writePrivateFile(this.file, `${JSON.stringify(Object.fromEntries(this.map))}\n`);
  }
}
