import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupedDigits } from './grouped-digits.js';

describe('groupedDigits', () => {
  it('writes a whole number as toLocaleString("en-US") does', () => {
    expect(groupedDigits(0)).toBe('0');
    expect(groupedDigits(999)).toBe('999');
    expect(groupedDigits(1_000)).toBe('1,000');
    expect(groupedDigits(20_000)).toBe('20,000');
    expect(groupedDigits(-1_234_567)).toBe('-1,234,567');
    fc.assert(
      fc.property(fc.maxSafeInteger().filter(Number.isSafeInteger), (n) => {
        expect(groupedDigits(n)).toBe(n.toLocaleString('en-US'));
      }),
    );
  });

  it('refuses what is not a whole number rather than write it wrong', () => {
    expect(() => groupedDigits(1.5)).toThrow(RangeError);
  });
});
