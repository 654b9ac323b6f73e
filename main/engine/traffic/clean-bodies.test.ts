/**
 * The bodies capture found without secrets lately: held from their second sighting, never
 * answered for another text, forgotten when a secret is learned, and bounded.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CleanBodies } from './clean-bodies.js';

/** A body long enough to be held (short ones read fast and never are), each different all along. */
const body = (n: number) => `{"items":[${Array.from({ length: 100 }, (_, i) => `"${n}-${i}"`).join(',')}]}`;

describe('the bodies found clean lately', () => {
  afterEach(() => vi.restoreAllMocks());

  it('holds a body from its second sighting on, for the secrets known then', () => {
    const clean = new CleanBodies();
    expect(clean.has(body(1), 0)).toBe(false);
    clean.remember(body(1), 0);
    expect(clean.has(body(1), 0)).toBe(false);
    clean.remember(body(1), 0);
    expect(clean.has(body(1), 0)).toBe(true);
    // Another text, and a short one, are not.
    expect(clean.has(body(2), 0)).toBe(false);
    clean.remember('{"short":true}', 0);
    clean.remember('{"short":true}', 0);
    expect(clean.has('{"short":true}', 0)).toBe(false);
    // A secret learned since: nothing is held any more, and it takes two sightings again.
    expect(clean.has(body(1), 1)).toBe(false);
    clean.remember(body(1), 1);
    expect(clean.has(body(1), 1)).toBe(true);
  });

  it('never looks up a body no held body shares a fingerprint with: a new 5 kB string is not hashed', () => {
    const clean = new CleanBodies();
    clean.remember(body(1), 0);
    clean.remember(body(1), 0);
    const get = vi.spyOn((clean as unknown as { bodies: Map<string, boolean> }).bodies, 'get');
    for (let n = 2; n < 200; n++) {
      expect(clean.has(body(n), 0)).toBe(false);
      clean.remember(body(n), 0);
    }
    // The held one is found by its string, before its print is read or the Map asked.
    expect(clean.has(body(1), 0)).toBe(true);
    expect(get).not.toHaveBeenCalled();
  });

  it('finds a held body that comes as another string of the same text, then by that string', () => {
    const clean = new CleanBodies();
    // Two bodies of one length: the second takes the first's place among the latest strings.
    const [first, second] = [body(10), body(11)];
    for (const held of [first, second]) {
      clean.remember(held, 0);
      clean.remember(held, 0);
    }
    const get = vi.spyOn((clean as unknown as { bodies: Map<string, boolean> }).bodies, 'get');
    const again = Buffer.from(first).toString();
    expect(clean.has(again, 0)).toBe(true);
    expect(get).toHaveBeenCalledTimes(1);
    expect(clean.has(again, 0)).toBe(true);
    expect(get).toHaveBeenCalledTimes(1);
  });

  it('answers only for the very text it holds, whatever shares its fingerprint', () => {
    // Texts of one length that differ at few places: many share the nine characters sampled.
    const text = fc
      .array(fc.constantFrom('a', 'b'), { minLength: 6, maxLength: 6 })
      .map((marks) => `${'{"p":"'}${marks.join('')}${'-'.repeat(600)}"}`);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), text), { maxLength: 60 }), text, (steps, probe) => {
        const clean = new CleanBodies();
        const sightings = new Map<string, number>();
        for (const [remember, t] of steps) {
          if (remember) {
            clean.remember(t, 0);
            sightings.set(t, (sightings.get(t) ?? 0) + 1);
          } else if (clean.has(t, 0)) {
            // Held only once remembered, and only as its own text.
            expect(sightings.get(t) ?? 0).toBeGreaterThanOrEqual(1);
          }
        }
        if (clean.has(probe, 0)) expect(sightings.has(probe)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('holds at most its count, the newest, and still finds them after many have come and gone', () => {
    const clean = new CleanBodies();
    for (let n = 0; n < 10_000; n++) {
      clean.remember(body(n), 0);
      clean.remember(body(n), 0);
    }
    expect(clean.has(body(0), 0)).toBe(false);
    for (let n = 10_000 - 512; n < 10_000; n++) expect(clean.has(body(n), 0)).toBe(true);
  });
});
