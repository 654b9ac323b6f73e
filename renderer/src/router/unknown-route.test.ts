import { describe, expect, it } from 'vitest';
import { namesNoArea } from './unknown-route';

describe('an address that names no area', () => {
  it.each([
    ['/nope', true],
    ['/settings/x', true],
    ['/', false],
    ['', false],
    ['/player', false],
    ['/player/player-kitchen', false],
    ['traffic', false],
  ])('%s → %s', (path, expected) => {
    expect(namesNoArea(path)).toBe(expected);
  });
});
