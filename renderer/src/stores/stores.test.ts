import { describe, expect, it } from 'vitest';
import { extrapolate } from './clock';

describe('engine time in the renderer', () => {
  it('stands still when the clock is stopped', () => {
    expect(extrapolate({ now: 1_000, speed: 0 }, 0, 50_000)).toBe(1_000);
  });

  it('moves at the clock speed between pushes', () => {
    expect(extrapolate({ now: 1_000, speed: 60 }, 100, 1_100)).toBe(61_000);
  });
});
