// Which workspace each agent session's latest event went to, kept in `sessions.json` so an event
// without a cwd finds it across a service restart (an event with one goes to its cwd's), and the
// other workspaces its recent events reached (a session that moved): after a restart, a turn the
// crash left going on there is found and ended or continued with the session's next event.
// Bounded: the oldest entries go first.
import { statePath } from '../state-dir.js';
import { readPrivateFile, writePrivateFile } from './private-file.js';

const MAX_SESSIONS = 5_000;
/** Workspaces remembered per session, latest first. */
const MAX_PLACES = 4;

export class SessionMap {
  /** session → its workspaces, latest first (stored as a string when there is one). */
  private readonly map = new Map<string, string[]>();
  private readonly file: string;

  /** `file`: another service's own `sessions.json` (`serve --data`), else the per-user one. */
  constructor(env: NodeJS.ProcessEnv = process.env, file: string = statePath('sessions', env)) {
    this.file = file;
    try {
      const raw = JSON.parse(readPrivateFile(this.file)) as unknown;
      if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
        for (const [session, workspaces] of Object.entries(raw)) {
          const list = (Array.isArray(workspaces) ? workspaces : [workspaces]).filter(
            (w): w is string => typeof w === 'string',
          );
          if (list.length > 0) this.map.set(session, list.slice(0, MAX_PLACES));
        }
      }
    } catch {
      // none yet, or damaged: sessions are matched again by their next event's cwd
    }
  }

  workspaceOf(sessionId: string): string | undefined {
    return this.map.get(sessionId)?.[0];
  }

  /** Every workspace the session's recent events went to, latest first. */
  workspacesOf(sessionId: string): readonly string[] {
    return this.map.get(sessionId) ?? [];
  }

  set(sessionId: string, workspaceId: string): void {
    const list = this.map.get(sessionId) ?? [];
    if (list[0] === workspaceId) return;
    this.map.delete(sessionId);
    this.map.set(sessionId, [workspaceId, ...list.filter((w) => w !== workspaceId)].slice(0, MAX_PLACES));
    while (this.map.size > MAX_SESSIONS) this.map.delete(this.map.keys().next().value as string);
    // Written at once: the session's next event may come from a restarted service.
    this.flush();
  }

  /** Drops a forgotten workspace from every session: their next event places them again. */
  forgetWorkspace(workspaceId: string): void {
    let changed = false;
    for (const [session, list] of this.map) {
      if (!list.includes(workspaceId)) continue;
      changed = true;
      const rest = list.filter((w) => w !== workspaceId);
      if (rest.length === 0) this.map.delete(session);
      else this.map.set(session, rest);
    }
    if (changed) this.flush();
  }

  flush(): void {
    const stored = Object.fromEntries(
      [...this.map].map(([session, list]) => [session, list.length === 1 ? list[0] : list]),
    );
    writePrivateFile(this.file, `${JSON.stringify(stored)}\n`);
  }
}
