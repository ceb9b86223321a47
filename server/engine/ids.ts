// The engine's ids (turns, messages, shell commands): one generator, so ids of every kind sort
// by creation time alike; and the check of the session ids hosts give. Its own file: the turns
// and the scans both make and check ids, and neither should import the other for it.
import { randomBytes } from 'node:crypto';
import { SESSION_ID_PATTERN } from '../protocol.js';
import { BadRequestError } from './errors.js';

let lastStamp = 0;
let counter = 0;

/** Opaque ids that sort by creation time: prefix, time, counter, randomness. */
export function newId(prefix: string): string {
  const now = Date.now();
  counter = now === lastStamp ? counter + 1 : 0;
  lastStamp = now;
  return `${prefix}${now.toString(36).padStart(9, '0')}${counter.toString(36).padStart(3, '0')}${randomBytes(5).toString('hex')}`;
}

export function checkSessionId(sessionId: unknown): string {
  if (typeof sessionId !== 'string' || !SESSION_ID_PATTERN.test(sessionId)) {
    throw new BadRequestError('a sessionId is 1-200 characters of [A-Za-z0-9._:@-]', { sessionId });
  }
  return sessionId;
}
