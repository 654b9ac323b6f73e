import { describe, expect, it } from 'vitest';
import { backgroundRetryDelay, clampRetryAfter, foregroundRetryDelay, parseRetryAfter, type Failure } from './retry.js';

const incomplete: Failure = { kind: 'incomplete', message: 'reset' };
const unavailable = (retryAfterSec?: number): Failure => ({
  kind: 'unavailable',
  status: 503,
  retryAfterSec,
  message: '503',
});
const other: Failure = { kind: 'other', status: 500, message: '500' };

describe('§7.2 foreground retries', () => {
  it('retries an incomplete request 3 times, 2 s apart', () => {
    expect([0, 1, 2, 3].map((n) => foregroundRetryDelay(incomplete, n))).toEqual([2_000, 2_000, 2_000, null]);
  });

  it('retries a 503 3 times after Retry-After clamped to 2–10 s', () => {
    expect(foregroundRetryDelay(unavailable(5), 0)).toBe(5_000);
    expect(foregroundRetryDelay(unavailable(1), 0)).toBe(2_000);
    expect(foregroundRetryDelay(unavailable(60), 2)).toBe(10_000);
    expect(foregroundRetryDelay(unavailable(undefined), 0)).toBe(2_000);
    expect(foregroundRetryDelay(unavailable(5), 3)).toBeNull();
  });

  it('never retries other server errors', () => {
    expect(foregroundRetryDelay(other, 0)).toBeNull();
    expect(foregroundRetryDelay({ kind: 'notFound', status: 404, message: '' }, 0)).toBeNull();
  });
});

describe('§7.4 background retries', () => {
  it('retries up to three more times, 10 s apart, for incomplete requests and 503', () => {
    expect([0, 1, 2, 3].map((n) => backgroundRetryDelay(incomplete, n))).toEqual([10_000, 10_000, 10_000, null]);
    expect(backgroundRetryDelay(unavailable(3), 0)).toBe(10_000);
  });

  it('does not retry what §7.2 never retries', () => {
    expect(backgroundRetryDelay(other, 0)).toBeNull();
  });
});

describe('Retry-After', () => {
  it('clamps to 2–10 s', () => {
    expect([0, 2, 7, 10, 11].map(clampRetryAfter)).toEqual([2, 2, 7, 10, 10]);
  });

  it('reads delta-seconds and HTTP dates', () => {
    expect(parseRetryAfter('4', 0)).toBe(4);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
    // Date.parse reads these as dates (the years -1 and 2001): neither is a Retry-After (audit).
    for (const unreadable of ['-1', '1.5', '10s', '2015-10-21T07:28:00Z'])
      expect(parseRetryAfter(unreadable, 0), unreadable).toBeUndefined();
    // The three forms of an HTTP-date.
    const at = Date.UTC(2015, 9, 21, 7, 28);
    // GMT each, asctime's too (it names no zone), wherever the machine is (review: read as local time).
    const zone = process.env.TZ;
    try {
      for (const tz of ['UTC', 'America/New_York', 'Asia/Tokyo']) {
        process.env.TZ = tz;
        for (const date of [
          'Wed, 21 Oct 2015 07:28:00 GMT',
          'Wednesday, 21-Oct-15 07:28:00 GMT',
          'Wed Oct 21 07:28:00 2015',
        ])
          expect(parseRetryAfter(date, at - 5_000), `${date} in ${tz}`).toBe(5);
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
  });
});
