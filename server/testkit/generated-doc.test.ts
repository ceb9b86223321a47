import { describe, expect, it } from 'vitest';
import { replaceGeneratedBlock } from './generated-doc.js';

describe('replaceGeneratedBlock', () => {
  it('replaces only the named block and keeps the prose around it', () => {
    const first = replaceGeneratedBlock('# Title\n\nprose before\n', 'bench', '| a |\n');
    expect(first).toContain('prose before');
    expect(first).toContain('| a |');
    const doc = `${first}\nprose after\n`;
    const second = replaceGeneratedBlock(doc, 'bench', '| b |');
    expect(second).not.toContain('| a |');
    expect(second).toContain('| b |');
    expect(second.indexOf('prose before')).toBeLessThan(second.indexOf('| b |'));
    expect(second.indexOf('| b |')).toBeLessThan(second.indexOf('prose after'));
    expect(second.match(/bench:begin/g)).toHaveLength(1);
  });

  it('leaves another block alone', () => {
    const doc = replaceGeneratedBlock(replaceGeneratedBlock('', 'one', 'x1'), 'two', 'y1');
    const next = replaceGeneratedBlock(doc, 'one', 'x2');
    expect(next).toContain('y1');
    expect(next).toContain('x2');
    expect(next).not.toContain('x1');
  });
});
