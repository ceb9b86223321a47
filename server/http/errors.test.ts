import { describe, expect, it } from 'vitest';
import { EngineError } from '../engine/errors.js';
import type { ErrorCode } from '../protocol.js';
import { errorAnswer, HttpError } from './errors.js';

const TABLE: [ErrorCode, number][] = [
  ['BAD_REQUEST', 400],
  ['BAD_URI', 400],
  ['UNAUTHORIZED', 401],
  ['FORBIDDEN', 403],
  ['NOT_FOUND', 404],
  ['TURN_NOT_FOUND', 404],
  ['SESSION_NOT_FOUND', 404],
  ['FILE_NOT_FOUND', 404],
  ['METHOD_NOT_ALLOWED', 405],
  ['CONFLICT', 409],
  ['TURN_ACTIVE', 409],
  ['PAYLOAD_TOO_LARGE', 413],
  ['TOO_LARGE', 413],
  ['UNSUPPORTED_MEDIA_TYPE', 415],
  ['NO_SPACE', 507],
];

describe('errorAnswer', () => {
  it.each(TABLE)('maps %s to %i by its code, with message and details', (code, status) => {
    const logged: string[] = [];
    const answer = errorAnswer(new EngineError(code, 'why', { extra: 1 }), (line) => logged.push(line));
    expect(answer).toEqual({ status, body: { error: { code, message: 'why', extra: 1 } } });
    expect(logged).toEqual([]);
  });

  it('does not read the message to decide', () => {
    const answer = errorAnswer(new HttpError('CONFLICT', 'not found'), () => {});
    expect(answer.status).toBe(409);
  });

  it('turns a system error or anything unknown into a logged 500 without details', () => {
    for (const thrown of [
      Object.assign(new Error('ENOENT: /secret/path'), { code: 'ENOENT' }),
      new TypeError('x is undefined'),
      'a string',
    ]) {
      const logged: string[] = [];
      const answer = errorAnswer(thrown, (line) => logged.push(line));
      expect(answer).toEqual({ status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } });
      expect(logged).toHaveLength(1);
    }
  });

  it('keeps a detail from overwriting the code', () => {
    const answer = errorAnswer(
      new EngineError('CONFLICT', 'm', { code: 'OTHER', conflicts: ['workspace:/a'] }),
      () => {},
    );
    expect(answer.body.error).toEqual({ code: 'CONFLICT', message: 'm', conflicts: ['workspace:/a'] });
  });
});
