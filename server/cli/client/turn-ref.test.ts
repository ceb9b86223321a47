// Short turn ids: the shortest prefix that still tells the listed ids apart.
import { describe, expect, it } from 'vitest';
import { shortIdLength } from './turn-ref.js';

describe('shortIdLength', () => {
  it('is the minimum when that already tells the ids apart', () => {
    expect(shortIdLength(['t_aaaaaaaa1', 't_bbbbbbbb2'], 4)).toBe(4);
  });

  it('grows until every id differs, as git shortens hashes', () => {
    expect(shortIdLength(['t_mk3a0001xyz', 't_mk3a0002xyz', 't_mk3a0002abc'], 4)).toBe(11);
  });

  it('is the full length when an id is a prefix of another', () => {
    expect(shortIdLength(['t_abc', 't_abcd'], 2)).toBe(6);
  });
});
