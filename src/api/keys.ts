// Hierarchical query keys, one factory per resource: every key of a resource starts with its
// `all` key, so an invalidation can name a whole resource, one session's part of it, or one
// entry. Queries, live events and mutations build their keys here and nowhere else.
import type { RollbackTarget } from './rollbackTarget';

export const keys = {
  health: { all: ['health'] as const },
  store: { all: ['store'] as const },
  sessions: { all: ['sessions'] as const },
  turns: {
    all: ['turns'] as const,
    ofSession: (sessionId: string) => [...keys.turns.all, sessionId] as const,
    list: (sessionId: string) => [...keys.turns.ofSession(sessionId), 'list'] as const,
    search: (sessionId: string, text: string) => [...keys.turns.ofSession(sessionId), 'search', text] as const,
  },
  manifest: {
    all: ['manifest'] as const,
    ofTurn: (turnId: string) => [...keys.manifest.all, turnId] as const,
  },
  diff: {
    all: ['diff'] as const,
    ofTurn: (turnId: string) => [...keys.diff.all, turnId] as const,
    ofFile: (turnId: string, uri: string) => [...keys.diff.ofTurn(turnId), uri] as const,
  },
  /** What a path holds on disk now (the preview's "current" side). */
  current: {
    all: ['current'] as const,
    ofFile: (uri: string) => [...keys.current.all, uri] as const,
  },
  messages: {
    all: ['messages'] as const,
    ofSession: (sessionId: string) => [...keys.messages.all, sessionId] as const,
    ofTurn: (sessionId: string, turnId?: string) => [...keys.messages.ofSession(sessionId), turnId ?? 'all'] as const,
  },
  preview: {
    all: ['preview'] as const,
    of: (target: RollbackTarget) => [...keys.preview.all, target] as const,
  },
};
