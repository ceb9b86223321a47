// How a record's states and per-path changes are kept in their rows: a few bytes each, with the
// content's hash as its 32 bytes, not 64 hex characters inside JSON (schema 10). The rest of
// the engine keeps the JSON it has always had: `Store` converts at its boundary, both ways.
// A value this format cannot give back exactly (a field it does not know, a hash that is not
// a sha256) is kept as its JSON text behind the tag JSON: every row reads back as written.
import type { ChangeKind, SkipReason, SpecialKind } from '../../protocol.js';

const enum Tag {
  Json = 0,
  File = 1,
  /** A file whose content was not kept (skipped): no hash. */
  FileWithoutContent = 2,
  Dir = 3,
  Symlink = 4,
  Special = 5,
  Change = 6,
}

const SPECIAL_KINDS: SpecialKind[] = ['fifo', 'socket', 'char', 'block'];
const CHANGE_KINDS: ChangeKind[] = [
  'created',
  'modified',
  'deleted',
  'renamed',
  'moved',
  'dir-created',
  'dir-deleted',
  'mode-changed',
];
const SKIP_REASONS: SkipReason[] = ['too-large', 'excluded', 'unreadable', 'budget'];
const HASH = /^[0-9a-f]{64}$/;

class Writer {
  private readonly bytes: number[] = [];
  byte(n: number): this {
    this.bytes.push(n);
    return this;
  }
  /** An unsigned integer up to 2^53, seven bits a byte. */
  varint(n: number): this {
    while (n >= 0x80) {
      this.bytes.push((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    this.bytes.push(n);
    return this;
  }
  raw(data: Uint8Array): this {
    for (const b of data) this.bytes.push(b);
    return this;
  }
  /** Length first, then the bytes. */
  chunk(data: Uint8Array): this {
    return this.varint(data.length).raw(data);
  }
  done(): Buffer {
    return Buffer.from(this.bytes);
  }
}

class Reader {
  private at = 0;
  constructor(private readonly data: Buffer) {}
  byte(): number {
    if (this.at >= this.data.length) throw new Error('a record ends early');
    return this.data[this.at++];
  }
  varint(): number {
    let n = 0;
    for (let scale = 1; ; scale *= 0x80) {
      const b = this.byte();
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
    }
  }
  take(length: number): Buffer {
    if (this.at + length > this.data.length) throw new Error('a record ends early');
    return this.data.subarray(this.at, (this.at += length));
  }
  chunk(): Buffer {
    return this.take(this.varint());
  }
  rest(): Buffer {
    return this.take(this.data.length - this.at);
  }
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** A state (parsed) in the compact form, or null when this form cannot hold it exactly. */
function encodeState(s: Record<string, unknown>): Buffer | null {
  const w = new Writer();
  if (s.type === 'file' && isCount(s.size) && isCount(s.mode) && typeof s.hash === 'string') {
    if (s.hash === '') return w.byte(Tag.FileWithoutContent).varint(s.mode).varint(s.size).done();
    if (!HASH.test(s.hash)) return null;
    return w.byte(Tag.File).varint(s.mode).varint(s.size).raw(Buffer.from(s.hash, 'hex')).done();
  }
  if (s.type === 'dir' && isCount(s.mode)) return w.byte(Tag.Dir).varint(s.mode).done();
  if (s.type === 'symlink' && typeof s.target === 'string')
    return w.byte(Tag.Symlink).raw(Buffer.from(s.target, 'utf8')).done();
  const kind = SPECIAL_KINDS.indexOf(s.kind as SpecialKind);
  if (s.type === 'special' && kind >= 0 && isCount(s.mode)) return w.byte(Tag.Special).byte(kind).varint(s.mode).done();
  return null;
}

function decodeState(data: Buffer): unknown {
  const r = new Reader(data);
  const tag = r.byte();
  switch (tag) {
    case Tag.Json:
      return JSON.parse(r.rest().toString('utf8'));
    case Tag.File: {
      const mode = r.varint();
      const size = r.varint();
      return { type: 'file', hash: r.take(32).toString('hex'), size, mode };
    }
    case Tag.FileWithoutContent: {
      const mode = r.varint();
      return { type: 'file', hash: '', size: r.varint(), mode };
    }
    case Tag.Dir:
      return { type: 'dir', mode: r.varint() };
    case Tag.Symlink:
      return { type: 'symlink', target: r.rest().toString('utf8') };
    case Tag.Special: {
      const kind = SPECIAL_KINDS[r.byte()];
      return { type: 'special', kind, mode: r.varint() };
    }
    default:
      throw new Error(`unknown record tag ${tag}`);
  }
}

const asJson = (json: string) => new Writer().byte(Tag.Json).raw(Buffer.from(json, 'utf8')).done();

/** Keeps the compact form only where it reads back as exactly this JSON text. */
function exactly(json: string, packed: Buffer | null, unpack: (b: Buffer) => string): Buffer {
  return packed && unpack(packed) === json ? packed : asJson(json);
}

/** An entry's state as kept in its row (null: no state). */
export function packState(json: string | null): Buffer | null {
  if (json === null) return null;
  const parsed = JSON.parse(json) as unknown;
  if (parsed === null) return asJson(json);
  return exactly(json, typeof parsed === 'object' ? encodeState(parsed as Record<string, unknown>) : null, unpackState);
}

export function unpackState(data: Buffer): string;
export function unpackState(data: Buffer | null): string | null;
export function unpackState(data: Buffer | null): string | null {
  return data === null ? null : JSON.stringify(decodeState(data));
}

/** An entry's state as its row keeps it, parsed: what `JSON.parse(unpackState(data))` gives, without the text between. */
export function readState(data: Buffer | null): unknown {
  return data === null ? null : decodeState(data);
}

/** Text UTF-8 keeps as it is: no lone surrogate (which UTF-8 turns into U+FFFD). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const wellFormed = (text: string) => !LONE_SURROGATE.test(text);

/** The keys of each kind of state, in the order the decoder gives them back. */
const STATE_KEYS: Record<string, string> = {
  file: 'type,hash,size,mode',
  dir: 'type,mode',
  symlink: 'type,target',
  special: 'type,kind,mode',
};

/**
 * A state object in the compact form when it reads back as exactly the same JSON text (its keys
 * those of its kind, in the decoder's order, and text that UTF-8 keeps), or null: what
 * `exactly` tells by decoding back, told here from the object itself, without its JSON.
 */
function encodeExact(s: Record<string, unknown>): Buffer | null {
  if (Object.keys(s).join(',') !== STATE_KEYS[s.type as string]) return null;
  if (s.type === 'symlink' && !wellFormed(s.target as string)) return null;
  return encodeState(s);
}

/**
 * `packState(s ? JSON.stringify(s) : null)` from the state object itself: the same bytes,
 * without writing its JSON text and reading it back (a turn's commit packs thousands).
 */
export function packStateOf(s: object | null | undefined): Buffer | null {
  if (!s) return null;
  return encodeExact(s as Record<string, unknown>) ?? packState(JSON.stringify(s));
}

/** A state inside a change: empty for null. */
function stateChunk(s: unknown): Buffer | null {
  if (s === null) return Buffer.alloc(0);
  return typeof s === 'object' ? encodeState(s as Record<string, unknown>) : null;
}

/**
 * A per-path change (FileChange JSON) as kept in its row, without its uri (the row's own
 * column): kind, states, origin of a rename, skip reason, line counts.
 */
export function packChange(json: string, uri: string): Buffer {
  const packed = encodeChange(JSON.parse(json) as Record<string, unknown>, uri);
  return packed ? exactly(json, packed, (b) => unpackChange(b, uri)) : asJson(json);
}

/** A change (parsed) in the compact form, or null when this form cannot hold it. */
function encodeChange(c: Record<string, unknown>, uri: string): Buffer | null {
  const kind = CHANGE_KINDS.indexOf(c.change as ChangeKind);
  const before = stateChunk(c.before);
  const after = stateChunk(c.after);
  const skipped = c.skipped === undefined ? -1 : SKIP_REASONS.indexOf(c.skipped as SkipReason);
  const lines = c.lines as { added?: unknown; removed?: unknown } | undefined;
  const linesOk = lines === undefined || (isCount(lines.added) && isCount(lines.removed));
  if (c.uri !== uri || kind < 0 || !before || !after || skipped < -1 || !linesOk) return null;
  if (c.from !== undefined && typeof c.from !== 'string') return null;
  const flags = (c.from !== undefined ? 1 : 0) | (skipped >= 0 ? 2 : 0) | (lines ? 4 : 0);
  const w = new Writer().byte(Tag.Change).byte(kind).byte(flags).chunk(before).chunk(after);
  if (c.from !== undefined) w.chunk(Buffer.from(c.from as string, 'utf8'));
  if (skipped >= 0) w.byte(skipped);
  if (lines) w.varint(lines.added as number).varint(lines.removed as number);
  return w.done();
}

/** The keys of a change, in the order the decoder gives them back (the last three when present). */
const CHANGE_KEYS = ['uri', 'change', 'before', 'after', 'from', 'skipped', 'lines'];

/**
 * `packChange(JSON.stringify(c), uri)` from the change object itself: the same bytes, without
 * its JSON text, where the object reads back exactly (its keys in the decoder's order, its
 * states exact); otherwise by its JSON, as `packChange` keeps anything.
 */
export function packChangeOf(c: object, uri: string): Buffer {
  const o = c as Record<string, unknown>;
  const keys = Object.keys(o);
  const exact =
    keys.every((k, i) => i === 0 || CHANGE_KEYS.indexOf(k) > CHANGE_KEYS.indexOf(keys[i - 1])) &&
    keys.slice(0, 4).join(',') === 'uri,change,before,after' &&
    [o.before, o.after].every(
      (state) => state === null || (typeof state === 'object' && encodeExact(state as Record<string, unknown>)),
    ) &&
    (o.from === undefined || (typeof o.from === 'string' && wellFormed(o.from))) &&
    (o.lines === undefined || Object.keys(o.lines as object).join(',') === 'added,removed');
  return (exact && encodeChange(o, uri)) || packChange(JSON.stringify(c), uri);
}

export function unpackChange(data: Buffer, uri: string): string {
  if (data[0] === Tag.Json) return data.subarray(1).toString('utf8');
  return JSON.stringify(readChange(data, uri));
}

/**
 * A change as its row keeps it, parsed: what `JSON.parse(unpackChange(data, uri))` gives,
 * without the text between (a rewind reads every change of the turns it covers).
 */
export function readChange(data: Buffer, uri: string): unknown {
  const r = new Reader(data);
  const tag = r.byte();
  if (tag === Tag.Json) return JSON.parse(r.rest().toString('utf8'));
  if (tag !== Tag.Change) throw new Error(`unknown record tag ${tag}`);
  const change = CHANGE_KINDS[r.byte()];
  const flags = r.byte();
  const state = (b: Buffer) => (b.length === 0 ? null : decodeState(b));
  const out: Record<string, unknown> = { uri, change, before: state(r.chunk()), after: state(r.chunk()) };
  if (flags & 1) out.from = r.chunk().toString('utf8');
  if (flags & 2) out.skipped = SKIP_REASONS[r.byte()];
  if (flags & 4) out.lines = { added: r.varint(), removed: r.varint() };
  return out;
}
