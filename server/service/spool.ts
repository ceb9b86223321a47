// The hooks' spool (docs/api.md "State dir"): prompts, stops and replies a hook could not deliver
// in time, one JSON line each, appended (0600, bounded, synced), taken in by the service, in
// order, once it is up. Node built-ins only: the hook loads this.
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  fdatasyncSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { statePath } from '../state-dir.js';

/** Past this the spool takes nothing more (the hook tells the person instead). */
export const MAX_SPOOL_BYTES = 32 * 1024 * 1024;

export interface SpooledEvent {
  /** The host whose hook route takes the event (`claude-code`, `codex`, …). */
  host: string;
  /** The id the hook gave the delivery: an event that did reach the service is not taken in twice. */
  delivery: string;
  at: string;
  /** The raw event, as the hook would have posted it. */
  event: string;
}

/** The events whose delivery can wait: they record no file's state, so a late one loses nothing. */
const CAN_WAIT = new Set([
  'UserPromptSubmit',
  'Stop',
  'StopFailure',
  'SubagentStop',
  'SessionEnd',
  'BeforeAgent',
  'AfterAgent',
  'Interrupt',
  'beforeSubmitPrompt',
  'afterAgentResponse',
  'stop',
]);

/** A delivery id for an event that may be spooled, else undefined. */
export function deliveryIdOf(input: string): string | undefined {
  try {
    const name = (JSON.parse(input) as { hook_event_name?: unknown }).hook_event_name;
    return typeof name === 'string' && CAN_WAIT.has(name) ? randomUUID() : undefined;
  } catch {
    return undefined;
  }
}

/** Appends one event; false when it cannot be kept (the spool full, the disk full, no state dir). */
export function appendToSpool(file: string, entry: SpooledEvent): boolean {
  const line = Buffer.from(`${JSON.stringify(entry)}\n`);
  let fd: number;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fd = openSync(file, 'a', 0o600);
  } catch {
    return false;
  }
  try {
    if (fstatSync(fd).size + line.length > MAX_SPOOL_BYTES) return false;
    // One write of the whole line: O_APPEND keeps the lines of hooks appending at once apart.
    writeSync(fd, line);
    fdatasyncSync(fd);
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

const TAKING = /\.(\d+)-(\d+)\.taking$/;

/**
 * Moves the spool aside (new events start a new one) and reads every spool taken but not yet
 * done (a service that stopped while taking one in), oldest first. `done()` removes them.
 */
export function takeSpool(file: string): { events: SpooledEvent[]; damaged: number; done(): void } {
  try {
    renameSync(file, `${file}.${Date.now()}-${process.pid}.taking`);
  } catch {
    // no spool now: only the ones taken before, if any
  }
  const dir = path.dirname(file);
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((name) => name.startsWith(`${path.basename(file)}.`) && TAKING.test(name));
  } catch {
    names = [];
  }
  names.sort((a, b) => Number(TAKING.exec(a)![1]) - Number(TAKING.exec(b)![1]));
  const events: SpooledEvent[] = [];
  let damaged = 0;
  for (const name of names) {
    let text: string;
    try {
      text = readFileSync(path.join(dir, name), 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const entry = parseEntry(line);
      if (entry) events.push(entry);
      else damaged++;
    }
  }
  return {
    events,
    damaged,
    done: () => {
      for (const name of names) rmSync(path.join(dir, name), { force: true });
    },
  };
}

function parseEntry(line: string): SpooledEvent | undefined {
  try {
    const raw = JSON.parse(line) as Partial<SpooledEvent>;
    if (
      typeof raw.host === 'string' &&
      /^[a-z][a-z-]{0,30}$/.test(raw.host) &&
      typeof raw.delivery === 'string' &&
      typeof raw.event === 'string'
    )
      return { host: raw.host, delivery: raw.delivery, at: String(raw.at ?? ''), event: raw.event };
  } catch {
    // a line cut by a full disk
  }
  return undefined;
}

/** The hook's side: keeps an event it could not deliver in the person's spool. */
export function spoolEvent(env: NodeJS.ProcessEnv, host: string, delivery: string, event: string): boolean {
  return appendToSpool(statePath('spool', env), { host, delivery, at: new Date().toISOString(), event });
}
