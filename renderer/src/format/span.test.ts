import { describe, expect, it } from 'vitest';
import { expiryText, formatExactSpan, formatLifetime } from './span';

describe('spans of engine time in words', () => {
  it.each([
    [5_000, '5 s'],
    [250_000, '4 min 10 s'],
    [631_000, '10 min'],
    [1_800_000, '30 min'],
    [86_399_000, '23 h 59 min'],
    [86_400_000, '24 h'],
    [3 * 86_400_000, '3 d'],
    [2 * 86_400_000 + 3 * 3_600_000, '2 d 3 h'],
  ])('a lifetime of %i ms is %s', (ms, text) => expect(formatLifetime(ms)).toBe(text));

  it.each([
    [1_000, '1 s'],
    [631_000, '10 min 31 s'],
    [7_200_000, '2 h'],
    [7_500_000, '2 h 5 min'],
  ])('a measured span of %i ms is %s', (ms, text) => expect(formatExactSpan(ms)).toBe(text));

  it('says whether a token is still live at engine time', () => {
    expect(expiryText(1_000 + 86_400_000, 1_000)).toBe('expires in 24 h');
    expect(expiryText(1_000, 61_000)).toBe('expired 1 min ago');
    expect(expiryText(null, 0)).toBe('no expiry');
  });
});
