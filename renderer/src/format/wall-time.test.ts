import { describe, expect, it } from 'vitest';
import { startedText } from './wall-time';

describe('a start in a list', () => {
  it('is its time of day when it is today, with its date when it is not', () => {
    const noon = new Date(2026, 4, 14, 12, 0, 0).getTime();
    expect(startedText(new Date(2026, 4, 14, 9, 5, 7).getTime(), noon)).toBe('09:05:07');
    expect(startedText(new Date(2026, 4, 13, 23, 1, 2).getTime(), noon)).toBe('2026-05-13 23:01:02');
  });
});
