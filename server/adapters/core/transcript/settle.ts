// A turn's end waits (briefly) for the transcript to hold every tool call its hooks announced:
// hosts append transcript lines asynchronously, and Claude Code's Stop hook can fire before the
// last of them is written (seen on the real CLI under load); for a host that marks a turn's end in
// its transcript, until that mark is written too (Copilot CLI flushes its last reply after its
// agentStop hook has started).
import type { TranscriptItem } from '../chat.js';
import type { HostTranscripts } from '../host.js';
import {
  awaitedTranscript,
  changedSince,
  readTranscriptTurn,
  type TranscriptPlace,
  type TranscriptRead,
} from './read.js';

/** Well inside a Stop hook's 2 s. */
const TRANSCRIPT_SETTLE_MS = 1000;
/** How often it looks again: a stat each time, and a read only when the file has changed. */
const TRANSCRIPT_POLL_MS = 25;

const missingTools = (items: TranscriptItem[], callIds: ReadonlySet<string>): number => {
  const written = new Set(items.map((item) => (item.kind === 'tool' ? item.id : null)));
  let missing = 0;
  for (const id of callIds) if (!written.has(id)) missing++;
  return missing;
};

export interface SettleOptions {
  /** How long to look (default: the turn end's own wait, 1 s). */
  waitMs?: number;
  /** How often (default 25 ms). */
  pollMs?: number;
  /** A host's transcript not created yet (HostTranscripts.createdAfterEnd) is waited for, not given up on. */
  awaitCreation?: boolean;
}

/** What a settle found: the turn's items, and whether the transcript held all of it by then. */
export interface SettledTurn {
  items: TranscriptItem[];
  settled: boolean;
}

/**
 * The turn as readTranscriptTurn reads it, once it holds a tool call for each of `callIds` (and its end),
 * re-reading (every `pollMs`) until it does or `waitMs` has passed; then what it holds by then. A
 * poll that finds the file as it was reads nothing. Null: the transcript is not to be read.
 */
export async function settleTurn(
  transcripts: HostTranscripts,
  path: string,
  prompt: string | null,
  callIds: ReadonlySet<string>,
  place: TranscriptPlace,
  options: SettleOptions = {},
): Promise<SettledTurn | null> {
  const { waitMs = TRANSCRIPT_SETTLE_MS, pollMs = TRANSCRIPT_POLL_MS, awaitCreation = false } = options;
  const deadline = Date.now() + waitMs;
  // A log the host creates late reads as an empty turn not ended, looked at again like one that grows.
  const notYet = (): TranscriptRead | null =>
    awaitCreation && transcripts.createdAfterEnd && awaitedTranscript(transcripts, path, place)
      ? { items: [], size: -1, mtimeMs: -1, bytesRead: 0, ended: false }
      : null;
  const readNow = async () => (await readTranscriptTurn(transcripts, path, prompt, place)) ?? notYet();
  let read = await readNow();
  for (;;) {
    if (read === null) return null;
    const settled = read.ended && missingTools(read.items, callIds) === 0;
    if (settled || Date.now() >= deadline) return { items: read.items, settled };
    // Unref'd: a wait after a turn's end never keeps a stopping service up.
    await new Promise((resolve) => setTimeout(resolve, pollMs).unref());
    if (await changedSince(path, read)) read = await readNow();
  }
}
