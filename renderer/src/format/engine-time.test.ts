import { describe, expect, it } from 'vitest';
import { engineDay, formatEngineClock, formatEngineMoment, formatEngineTime } from './engine-time';

describe('engine time as the areas write it', () => {
  const ms = new Date(2026, 10, 21, 9, 5, 7).getTime();

  it('is local date and time to the second, or to the millisecond', () => {
    expect(formatEngineTime(ms)).toBe('2026-11-21 09:05:07');
    expect(formatEngineTime(ms + 83, { millis: true })).toBe('2026-11-21 09:05:07.083');
  });

  it('is the time of day to the millisecond in lists, as the full form ends', () => {
    expect(formatEngineClock(ms + 83)).toBe('09:05:07.083');
    expect(formatEngineTime(ms + 83, { millis: true }).endsWith(formatEngineClock(ms + 83))).toBe(true);
  });

  it('is the time of day on the engine’s current day, and carries the date on any other', () => {
    const today = engineDay(ms);
    expect(today).toBe('2026-11-21');
    expect(formatEngineMoment(ms, today)).toBe('09:05:07');
    expect(formatEngineMoment(ms - 86_400_000, today)).toBe('2026-11-20 09:05:07');
    expect(formatEngineMoment(ms, null)).toBe('2026-11-21 09:05:07');
  });
});
