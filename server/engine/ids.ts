// The engine's ids (turns, messages, shell commands): one generator, so ids of every kind sort
// by creation time alike. Its own file: the turns and the scans both make ids, and neither
// should import the other for it.
import { randomBytes } from 'node:crypto';

let lastStamp = 0;
let counter = 0;

/** Opaque ids that sort by creation time: prefix, time, counter, randomness. */
export function newId(prefix: string): string {
  const now = Date.now();
  counter = now === lastStamp ? counter + 1 : 0;
  lastStamp = now;
  return `${prefix}${now.toString(36).padStart(9, '0')}${counter.toString(36).padStart(3, '0')}${randomBytes(5).toString('hex')}`;
}
