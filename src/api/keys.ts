// Hierarchical query keys, one factory per resource: every key of a workspace's data starts
// with that workspace's key, and every key of a resource with its `all` key, so an
// invalidation can name a whole workspace, a resource, one session's part of it, or one entry,
// and two workspaces' answers never share a cache entry. Queries, live events and mutations
// build their keys here and nowhere else.
import type { RollbackTarget } from './rollbackTarget';
import type { WorkspaceScope } from './workspaceScope';

/** The keys of one workspace's data (`null`: the server's default workspace, on its unprefixed routes). */
function workspaceKeys(scope: WorkspaceScope) {
  const root = ['workspace', scope] as const;
  const of = {
    all: root,
    store: { all: [...root, 'store'] as const },
    sessions: { all: [...root, 'sessions'] as const },
    turns: {
      all: [...root, 'turns'] as const,
      ofSession: (sessionId: string) => [...of.turns.all, sessionId] as const,
      list: (sessionId: string) => [...of.turns.ofSession(sessionId), 'list'] as const,
      search: (sessionId: string, text: string) => [...of.turns.ofSession(sessionId), 'search', text] as const,
    },
    manifest: {
      all: [...root, 'manifest'] as const,
      ofTurn: (turnId: string) => [...of.manifest.all, turnId] as const,
    },
    /** One command's whole kept text (a turn lists previews). */
    command: {
      all: [...root, 'command'] as const,
      of: (turnId: string, execId: string) => [...of.command.all, turnId, execId] as const,
    },
    diff: {
      all: [...root, 'diff'] as const,
      ofTurn: (turnId: string) => [...of.diff.all, turnId] as const,
      ofFile: (turnId: string, uri: string) => [...of.diff.ofTurn(turnId), uri] as const,
    },
    /** What a path holds on disk now (the preview's "current" side). */
    current: {
      all: [...root, 'current'] as const,
      ofFile: (uri: string) => [...of.current.all, uri] as const,
    },
    messages: {
      all: [...root, 'messages'] as const,
      ofSession: (sessionId: string) => [...of.messages.all, sessionId] as const,
      ofTurn: (sessionId: string, turnId?: string) => [...of.messages.ofSession(sessionId), turnId ?? 'all'] as const,
    },
    /** A turn's steps: fixed once the turn is committed, refreshed with the manifests. */
    steps: {
      all: [...root, 'steps'] as const,
      ofTurn: (turnId: string) => [...of.steps.all, turnId] as const,
    },
    pins: { all: [...root, 'pins'] as const },
    /** The repository's commits with their notes' turns (provenance), page by page. */
    commits: { all: [...root, 'commits'] as const },
    /** A commit's change to one path, read from git: fixed once the commit exists. */
    commitDiff: {
      all: [...root, 'commit-diff'] as const,
      of: (sha: string, path: string) => [...of.commitDiff.all, sha, path] as const,
    },
    /** Two points compared: each path's state at the end of `from` against the end of `to`. */
    compare: {
      all: [...root, 'compare'] as const,
      of: (from: string, to: string) => [...of.compare.all, from, to] as const,
      ofFile: (from: string, to: string, uri: string) => [...of.compare.of(from, to), uri] as const,
    },
    preview: {
      all: [...root, 'preview'] as const,
      of: (target: RollbackTarget) => [...of.preview.all, target] as const,
    },
  };
  return of;
}

export type WorkspaceKeys = ReturnType<typeof workspaceKeys>;

export const keys = {
  health: { all: ['health'] as const },
  /** The registered workspaces (the service's, across all of them). */
  workspaces: { all: ['workspaces'] as const },
  in: workspaceKeys,
};
