// A turn's end waits (briefly) for the transcript to hold every tool call its hooks announced:
// hosts append transcript lines asynchronously, and Claude Code's Stop hook can fire before the
// last of them is written (seen on the real CLI under load); for a host that marks a turn's end in
// its transcript, until that mark is written too (Copilot CLI flushes its last reply after its
// agentStop hook has started).
import type { TranscriptItem } from '../chat.js';
import type { HostTranscripts } from '../host.js';
import { changedSince, readTranscriptTurn, type TranscriptPlace } from './read.js';

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

/**
 * The turn as readTranscriptTurn reads it, once it holds a tool call for each of `callIds` (and its end),
 * re-reading until it does or TRANSCRIPT_SETTLE_MS has passed; then what it holds by then. A
 * poll that finds the file as it was reads nothing. Null: the transcript is not to be read.
 */
export async function readSettledTurn(
  transcripts: HostTranscripts,
  path: string,
  prompt: string | null,
  callIds: ReadonlySet<string>,
  place: TranscriptPlace,
): Promise<TranscriptItem[] | null> {
  const deadline = Date.now() + TRANSCRIPT_SETTLE_MS;
  let read = await readTranscriptTurn(transcripts, path, prompt, place);
  for (;;) {
    if (read === null || (read.ended && missingTools(read.items, callIds) === 0) || Date.now() >= deadline)
      return read?.items ?? null;
    await new Promise((resolve) => setTimeout(resolve, TRANSCRIPT_POLL_MS));
    if (await changedSince(path, read)) read = await readTranscriptTurn(transcripts, path, prompt, place);
  }
}
