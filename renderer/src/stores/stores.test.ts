import { describe, expect, it } from 'vitest';
import { extrapolate } from './clock';
import { areaFromHash } from './nav';

describe('engine time in the renderer', () => {
  it('stands still when the clock is stopped', () => {
    expect(extrapolate({ now: 1_000, speed: 0 }, 0, 50_000)).toBe(1_000);
  });

  it('moves at the clock speed between pushes', () => {
    expect(extrapolate({ now: 1_000, speed: 60 }, 100, 1_100)).toBe(61_000);
  });
});

describe('areas in the location hash', () => {
  it.each([
    ['', 'oauth'],
    ['#/queues', 'queues'],
    ['#traffic', 'traffic'],
    ['#/player/player-kitchen', 'player'],
    ['#/nonsense', 'oauth'],
  ])('%s opens %s', (hash, area) => expect(areaFromHash(hash)).toBe(area));
});
