import { describe, expect, it } from 'vitest';
import { charLength } from '../../src/domain/common/text.js';

describe('charLength', () => {
  it('counts code points: a surrogate pair is one character, a lone surrogate one too', () => {
    expect(charLength('')).toBe(0);
    expect(charLength('abc')).toBe(3);
    expect(charLength('é')).toBe(1);
    expect(charLength('\u{1F680}')).toBe(1);
    expect(charLength('a\u{1F680}b\u{1F680}')).toBe(4);
    expect(charLength('\uD83D')).toBe(1);
    expect(charLength('\uDE80x')).toBe(2);
    expect(charLength('\uD83Dx')).toBe(2);
  });
});
