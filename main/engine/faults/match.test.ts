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
    ['*', '/anything', true],
    ['*itemWindow', '/queues/q1/v2.3/itemWindow', true],
    ['/queues/*', '/other/q1', false],
    ['/a*b*a', '/aba', true],
    ['/a*b*a', '/aab', false],
    ['/a*b*a', '/a-b-a', true],
    ['/a*a', '/a', false],
    ['/a*a', '/aa', true],
    ['*v2.3*', '/queues/q.1/v2x3/context', false],
    ['/q/**/ctx', '/q/ctx', false],
    ['/q/**/ctx', '/q//ctx', true],
  ])('path %s against %s → %s', (pattern, path, expected) => expect(pathMatches(pattern, path)).toBe(expected));

  it('answers a glob of many stars at once, whatever the path (no backtracking)', () => {
    const started = performance.now();
    expect(pathMatches('*a*a*a*a*a*a*a*a*b', `/${'a'.repeat(40)}`)).toBe(false);
    expect(pathMatches('********x', `/queues/queue-${'q'.repeat(2_000)}/v2.3/itemWindow`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

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
    const draw = (seed: number) =>
      Array.from(
        { length: 5 },
        (
          (r) => () =>
            r.next()
        )(new SeededRandom(seed)),
      );
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
    for (const value of draw(7)) expect(value).toBeGreaterThanOrEqual(0);
  });
});
