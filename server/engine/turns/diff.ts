// Side-by-side diff of one path in a turn, from the blobs kept at capture and at commit.
import { imageTypeOf, type Diff, type FileChange, type Side, type State } from '../../protocol.js';
import { UnrestorableContentError } from '../content/contents.js';
import type { ContentStore } from '../content/contents.js';
import type { Entries } from '../db/entries.js';
import type { Turns } from '../db/turns.js';
import { FileNotFoundError, TurnNotFoundError } from '../errors.js';
import { TEXT_LIMIT, isBinary } from './summary.js';

/** What reading one side touches: the contents and the size limit. */
export interface SideDeps {
  contents: ContentStore;
  limits: { maxFileSize: number };
}

/** A turn's diff also reads its changes. */
export interface DiffDeps extends SideDeps {
  store: { turns: Turns; entries: Entries };
}

const ABSENT: Side = { exists: false, binary: false, tooLarge: false, truncated: false, size: 0, text: null };

export async function sideOf(ctx: SideDeps, state: State, imageType?: string): Promise<Side> {
  if (state === null) return ABSENT;
  if (state.type !== 'file')
    return { exists: true, binary: false, tooLarge: false, truncated: false, size: 0, text: null };
  const side: Side = { exists: true, binary: false, tooLarge: false, truncated: false, size: state.size, text: null };
  if (!state.hash) return { ...side, tooLarge: state.size > ctx.limits.maxFileSize };
  let data: Buffer;
  try {
    data = state.size > TEXT_LIMIT ? ctx.contents.readHead(state.hash, TEXT_LIMIT) : ctx.contents.read(state.hash);
  } catch (e) {
    if (e instanceof UnrestorableContentError) return side;
    throw e;
  }
  if (state.size <= TEXT_LIMIT && isBinary(data) && imageType)
    return { ...side, binary: true, image: { type: imageType, base64: data.toString('base64') } };
  if (state.size <= TEXT_LIMIT)
    return isBinary(data) ? { ...side, binary: true } : { ...side, text: data.toString('utf8') };
  // The cut at 1 MiB may split a multi-byte character: drop up to 3 trailing bytes before deciding.
  const head = trimPartialCharacter(data);
  if (isBinary(head)) return { ...side, binary: true };
  return { ...side, truncated: true, text: head.toString('utf8') };
}

function trimPartialCharacter(data: Buffer): Buffer {
  for (let cut = 0; cut <= 3 && cut < data.length; cut++) {
    const candidate = data.subarray(0, data.length - cut);
    if (!isBinary(candidate)) return candidate;
  }
  return data;
}

export async function diffOf(ctx: DiffDeps, turnId: string, uri: string): Promise<Diff> {
  if (!ctx.store.turns.get(turnId)) throw new TurnNotFoundError(turnId);
  return diffOfChange(ctx, uri, (u) => ctx.store.entries.changeOf(turnId, u));
}

/** Several paths' diffs in the order asked: the turn's changes are read once for all of them. */
export async function diffsOf(ctx: DiffDeps, turnId: string, uris: string[]): Promise<Diff[]> {
  if (!ctx.store.turns.get(turnId)) throw new TurnNotFoundError(turnId);
  const changes = new Map(ctx.store.entries.changesOf(turnId).map((c) => [c.uri, c]));
  const diffs: Diff[] = [];
  for (const uri of uris) diffs.push(await diffOfChange(ctx, uri, (u) => changes.get(u)));
  return diffs;
}

/** A path's diff; a rename or move shows its origin's before-state as its own. */
async function diffOfChange(
  ctx: DiffDeps,
  uri: string,
  changeOf: (uri: string) => FileChange | undefined,
): Promise<Diff> {
  const change = changeOf(uri);
  if (!change) throw new FileNotFoundError(uri);
  const origin = change.from ? changeOf(change.from) : undefined;
  const before = origin ? origin.before : change.before;
  const image = imageTypeOf(uri);
  const diff: Diff = { uri, before: await sideOf(ctx, before, image), after: await sideOf(ctx, change.after, image) };
  if (change.from) diff.from = change.from;
  return diff;
}
