// What the hook itself told the person (the service could not start), so each session hears each
// reason once: `told.json` in the state dir, keys `<session>\0<reason>`, the newest kept.
import { readPrivateFile, writePrivateFile } from '../../../service/private-file.js';
import { statePath } from '../../../state-dir.js';

const KEEP = 200;

/** True the first time for this session and reason (and remembers it). */
export function firstTelling(sessionId: string, reason: string, env: NodeJS.ProcessEnv): boolean {
  const file = statePath('told', env);
  let seen: string[] = [];
  try {
    const raw = JSON.parse(readPrivateFile(file)) as unknown;
    if (Array.isArray(raw)) seen = raw.filter((key): key is string => typeof key === 'string');
  } catch {
    // nothing told yet
  }
  const key = `${sessionId}\0${reason}`;
  if (seen.includes(key)) return false;
  try {
    writePrivateFile(file, JSON.stringify([...seen, key].slice(-KEEP)));
  } catch {
    // Telling twice beats not telling.
  }
  return true;
}
