import { describe, expect, it } from 'vitest';
import { duration } from './durations.mjs';

describe("npm test's durations", () => {
  it('rounds the seconds before taking the minutes', () => {
    expect(duration(1_139_600)).toBe('19 min 0 s');
    expect(duration(119_501)).toBe('2 min 0 s');
    expect(duration(61_400)).toBe('1 min 1 s');
    expect(duration(60_000)).toBe('1 min 0 s');
  });

  it('keeps a tenth of a second under a minute', () => {
    expect(duration(4_140)).toBe('4.1 s');
    expect(duration(59_999)).toBe('60.0 s');
  });
});
