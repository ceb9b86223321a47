// Sessions: scope matching and the Session shape.
import type { Session } from '../../protocol.js';
import type { ListedSession } from '../db/sessions.js';

/** A scope is `platform:sessionType` where either side may be `*`, or a lone `*`. */
export function scopeMatches(scopes: readonly string[], platform: string, sessionType: string): boolean {
  return scopes.some((scope) => {
    if (scope === '*') return true;
    const colon = scope.indexOf(':');
    const p = colon < 0 ? scope : scope.slice(0, colon);
    const t = colon < 0 ? '*' : scope.slice(colon + 1);
    return (p === '*' || p === platform) && (t === '*' || t === sessionType);
  });
}

export function toSession(row: ListedSession): Session {
  return {
    sessionId: row.sessionId,
    platform: row.platform,
    sessionType: row.sessionType,
    title: row.title ?? '',
    turnCount: row.turnCount,
    lastActivity: new Date(row.lastActivity).toISOString(),
    activeTurnId: row.activeTurnId,
    origin: row.origin,
  };
}
