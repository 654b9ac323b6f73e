import { describe, expect, it } from 'vitest';
import { expiryText, formatSpan } from './time';

describe('lifetimes in words', () => {
  it.each([
    [5_000, '5 s'],
    [250_000, '4 min 10 s'],
    [1_800_000, '30 min'],
    [86_399_000, '23 h 59 min'],
    [86_400_000, '24 h'],
    [3 * 86_400_000, '3 d'],
  ])('%i ms is %s', (ms, text) => expect(formatSpan(ms)).toBe(text));

  it('says whether a token is still live at engine time', () => {
    expect(expiryText(1_000 + 86_400_000, 1_000)).toBe('expires in 24 h');
    expect(expiryText(1_000, 61_000)).toBe('expired 1 min ago');
    expect(expiryText(null, 0)).toBe('no expiry');
  });
});
