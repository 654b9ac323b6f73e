import { describe, expect, it } from 'vitest';
import { bootstrapInterval, median } from './stats.js';

describe('bootstrapInterval', () => {
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

  it('is a single point when every sample is the same', () => {
    expect(bootstrapInterval([5, 5, 5, 5], median)).toEqual([5, 5]);
  });

  it('holds the statistic of the samples and lies within their range', () => {
    const samples = Array.from({ length: 40 }, (_, i) => (i * 37) % 17);
    const [low, high] = bootstrapInterval(samples, mean);
    expect(low).toBeLessThanOrEqual(mean(samples));
    expect(high).toBeGreaterThanOrEqual(mean(samples));
    expect(low).toBeGreaterThanOrEqual(Math.min(...samples));
    expect(high).toBeLessThanOrEqual(Math.max(...samples));
    expect(high).toBeGreaterThan(low);
  });

  it('narrows as samples agree more, widens with the level, and repeats with its seed', () => {
    const wide = Array.from({ length: 30 }, (_, i) => (i % 2 ? 0 : 20));
    const narrow = Array.from({ length: 30 }, (_, i) => (i % 2 ? 9 : 11));
    const width = ([low, high]: [number, number]) => high - low;
    expect(width(bootstrapInterval(narrow, mean))).toBeLessThan(width(bootstrapInterval(wide, mean)));
    expect(width(bootstrapInterval(wide, mean, { level: 0.5 }))).toBeLessThan(
      width(bootstrapInterval(wide, mean, { level: 0.99 })),
    );
    expect(bootstrapInterval(wide, mean, { seed: 7 })).toEqual(bootstrapInterval(wide, mean, { seed: 7 }));
  });

  it('refuses an empty sample', () => {
    expect(() => bootstrapInterval([], mean)).toThrow(/at least one sample/);
  });
});
