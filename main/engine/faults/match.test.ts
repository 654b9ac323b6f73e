import { describe, expect, it } from 'vitest';
import { matches, pathMatches } from './match.js';
import { SeededRandom } from './random.js';

describe('fault matching', () => {
  it.each([
    ['/itemWindow', '/queues/q1/v2.3/itemWindow', true],
    ['itemWindow', '/queues/q1/v2.3/itemWindow', true],
    ['/version', '/queues/q1/v2.3/version', true],
    ['/version', '/queues/q1/v2.3/versions', false],
    ['/login/v3/oauth', '/login/v3/oauth', true],
    ['/oauth', '/login/v3/oauth/access', false],
    ['/queues/*/v2.0/*', '/queues/q1/v2.0/context', true],
    ['/queues/*/v2.0/*', '/queues/q1/v2.3/context', false],
  ])('path %s against %s → %s', (pattern, path, expected) => expect(pathMatches(pattern, path)).toBe(expected));

  it('matches method in any case and reason exactly', () => {
    const request = { method: 'GET', path: '/q/itemWindow', reason: 'refresh' };
    expect(matches({ method: 'get', path: '/itemWindow', reason: 'refresh' }, request)).toBe(true);
    expect(matches({ reason: 'load' }, request)).toBe(false);
    expect(matches({ method: 'POST' }, request)).toBe(false);
    expect(matches({}, request)).toBe(true);
  });
});

describe('seeded random', () => {
  it('repeats for the same seed and differs for another', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, ((r) => () => r.next())(new SeededRandom(seed)));
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    for (const value of draw(7)) expect(value).toBeGreaterThanOrEqual(0);
  });
});
