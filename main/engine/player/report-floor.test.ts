/**
 * Report intervals under 1,000 ms from any server are raised to 1,000 ms and flagged as a
 * violation (docs/contract/console.md §9). The attack: a context with 1 ms intervals made the player
 * post ~400 reports a second and burn more than a core.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { playingHarness, type PlayerHarness } from '../testing/player-harness.js';
import { tracks } from '../testing/stub-cloud-queue.js';
import { MIN_REPORT_INTERVAL_MS } from './contract-check.js';

let h: PlayerHarness;
afterEach(() => h.close());

const updates = () => h.stub.postedReports().filter((r) => r.type === 'update');
const intervalWarnings = () =>
  h.exchanges
    .flatMap((e) => e.violations)
    .filter(
      (v) =>
        v.endpoint === 'context' &&
        v.severity === 'warning' &&
        /^reports\.\w+ is \d+ ms, under the 1,000 ms/.test(v.message),
    );

describe('report intervals under the floor (docs/contract/console.md §9)', () => {
  it('sends at most one update a second to a server asking every 1 ms, and records the violation', async () => {
    h = await playingHarness({
      items: tracks(3, 100_000),
      reports: { sendUpdateAfterMillis: 1, periodicIntervalMillis: 1 },
    });
    await h.advance(10_000);
    const sent = updates();
    expect(sent.length).toBeGreaterThanOrEqual(9);
    expect(sent.length).toBeLessThanOrEqual(11);
    const positions = sent.map((r) => r.positionMillis as number);
    for (let i = 1; i < positions.length; i++)
      expect(positions[i]! - positions[i - 1]!).toBeGreaterThanOrEqual(MIN_REPORT_INTERVAL_MS);
    expect(intervalWarnings().map((v) => v.message)).toEqual([
      'reports.sendUpdateAfterMillis is 1 ms, under the 1,000 ms the player waits at least; it waits 1,000 ms',
      'reports.periodicIntervalMillis is 1 ms, under the 1,000 ms the player waits at least; it waits 1,000 ms',
    ]);
  });

  it('raises them too in a context fetched again mid-queue', async () => {
    h = await playingHarness({
      items: tracks(20, 180_000),
      reports: { sendUpdateAfterMillis: 30_000, periodicIntervalMillis: 30_000 },
    });
    h.stub.reports = { sendUpdateAfterMillis: 0, periodicIntervalMillis: 5 };
    h.stub.contextVersion++;
    // The version poll (every 10 minutes while playing) sees the new contextVersion and fetches the context again.
    await h.advance(10 * 60_000 + 1_000);
    expect(h.stub.sent('context')).toHaveLength(2);
    const before = updates().length;
    await h.advance(20_000);
    expect(updates().length - before).toBeLessThanOrEqual(21);
    expect(intervalWarnings()).toHaveLength(2);
  });

  it('leaves intervals of 1,000 ms and more alone, and no periodicIntervalMillis meaning no periodic updates', async () => {
    h = await playingHarness({
      items: tracks(3, 100_000),
      reports: { sendUpdateAfterMillis: 1_000 },
    });
    await h.advance(10_000);
    expect(updates().map((r) => r.positionMillis)).toEqual([1_000]);
    expect(intervalWarnings()).toEqual([]);
  });

  it('takes a periodicIntervalMillis of 0 as under the floor, as any other: 1,000 ms, and a violation (audit-c 2)', async () => {
    h = await playingHarness({
      items: tracks(3, 100_000),
      reports: { sendUpdateAfterMillis: 5_000, periodicIntervalMillis: 0 },
    });
    await h.advance(8_500);
    expect(updates().map((r) => r.positionMillis)).toEqual([5_000, 6_000, 7_000, 8_000]);
    expect(intervalWarnings()).toHaveLength(1);
  });
});
