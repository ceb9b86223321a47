// The index tree's parent of a URI is the one the URI module parses out.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parentUri } from '../../paths/uri.js';
import { parentOfIndexed } from './index-tree.js';

const segment = fc.stringMatching(/^[a-z:.\- ]{1,4}$/).filter((s) => s !== '.' && s !== '..');

describe('parentOfIndexed', () => {
  it('answers what parentUri answers for every canonical URI', () => {
    fc.assert(
      fc.property(fc.constantFrom('workspace', 'data', 'r2'), fc.array(segment, { maxLength: 4 }), (root, segments) => {
        const uri = `${root}:/${segments.join('/')}`;
        expect(parentOfIndexed(uri)).toBe(parentUri(uri));
      }),
    );
  });
});
