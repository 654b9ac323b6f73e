/**
 * The report's word on a fleet whose own threads ran late (run-notes.ts): said past 100 ms at
 * p99, with the figures and what to do, and only then; and said in a real fleet whose thread was
 * kept from its core, as an overloaded machine keeps it; and the word on fewer threads than asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetReport } from '../api/fleet-types.js';
import type { Engine } from '../index.js';
import { startTestEngine } from '../testing/http.js';
import { BURST_PER_SECOND, BUSY_P99_MS, burstNote, busyNote, ownLimitNote, ownLimitsWhy } from './run-notes.js';

const lateness = (p99: number, max: number) => ({ count: 300, p50: 1, p90: 2, p99, max });

describe('ownLimitNote', () => {
  it("says requests failed on the fleet's own machine as the fleet's, with what to do, and only then", () => {
    expect(ownLimitNote([{ failures: { 'connection failed: ECONNREFUSED': 3 } }, {}])).toBeNull();
    const note = ownLimitNote([
      { failures: { 'connection failed: EMFILE': 6_004, 'connection failed: ECONNRESET': 2 } },
      { failures: { 'connection failed: EMFILE': 10, 'connection failed: EADDRNOTAVAIL': 1 } },
    ]);
    expect(note).toMatch(
      /^6,015 requests failed on this machine, before reaching the server \(EMFILE ×6,014: this process had every file descriptor it may open; EADDRNOTAVAIL ×1: the machine ran out of local ports\): they count as errors in the figures, and no threshold is judged, for the server did not get the load asked for\. Raise the open-files limit \(ulimit -n/,
    );
  });

  it('are why no threshold is judged, with their count by code (verdict trust: a FAIL blamed the server)', () => {
    expect(ownLimitsWhy([{ failures: { 'connection failed: ECONNRESET': 2 } }])).toBeNull();
    expect(
      ownLimitsWhy([
        { failures: { 'connection failed: EMFILE': 6_004 } },
        { failures: { 'connection failed: EMFILE': 10, 'connection failed: ENOBUFS': 1 } },
      ]),
    ).toBe(
      '6,015 requests failed on this machine before reaching the server (EMFILE ×6,014, ENOBUFS ×1): raise ulimit -n or play fewer players',
    );
  });
});

describe('busyNote', () => {
  it('says how late the threads ran, what it does to latencies and what to do, past 100 ms at p99 only', () => {
    expect(busyNote(lateness(BUSY_P99_MS - 1, 5_000), 1_000, 2)).toBeNull();
    expect(busyNote({ count: 0, p50: NaN, p90: NaN, p99: NaN, max: NaN }, 1_000, 2)).toBeNull();
    expect(busyNote(lateness(1_200, 2_700), 1_000, 2)).toBe(
      "the fleet's own threads were busy: their timers fired 1.2 s late at p99 (2.7 s at most), so a request's latency may hold that much of the fleet's own waiting, not the server's. 1,000 players on 2 threads were more than this machine plays on time: fewer players, or the Artillery engine across machines (docs/fleet.md), measure the server alone",
    );
    expect(busyNote(lateness(BUSY_P99_MS, 150), 1, 1)).toMatch(
      /fired 100 ms late at p99 \(150 ms at most\).* 1 players on 1 thread were/,
    );
  });
});

describe('burstNote', () => {
  it('says a join faster than 100 players a real second, and the ramp that spreads it, and only then', () => {
    expect(burstNote(200, 0, 10, 60_000)).toBe(
      "200 players joined at once: their first requests went out together, so the start's latencies hold the burst's queueing, the fleet's own (connections opened at once on this machine) as well as the server's. A ramp of 20 s or more (--ramp 20s) spreads the joins as listeners come, and measures the server alone",
    );
    // A ramp longer than the run is refused: the note says to lengthen the run too (outside audit).
    expect(burstNote(200, 0, 10, 10_000)).toMatch(
      /\(--ramp 20s, with a --duration at least as long: a ramp is part of the run\)/,
    );
    // 1,000 over 20 s of engine time at speed 10: 2 s of real time, 500 a second.
    expect(burstNote(1_000, 20_000, 10, 600_000)).toMatch(
      /^1,000 players joined in 2 s of real time: .* A ramp of 100 s or more \(--ramp 100s\)/,
    );
    expect(burstNote(BURST_PER_SECOND - 1, 0, 1, 60_000)).toBeNull();
    expect(burstNote(1_000, 10_000, 1, 60_000)).toBeNull();
    expect(burstNote(1_000, 9_000, 1, 60_000)).not.toBeNull();
  });
});

describe('the notes of a fleet run', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it('say how many threads played when fewer than asked, and why (audit z1-8)', async () => {
    const { id } = await engine.commands.run('fleets.start', { players: 1, durationMs: 1_000, speed: 10, workers: 8 });
    let report: FleetReport = await engine.commands.run('fleets.get', { id });
    while (report.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      report = await engine.commands.run('fleets.get', { id });
    }
    expect(report.workers).toBe(1);
    expect(report.notes).toContain('--workers 8: 1 thread played, one for each of the 1 player at most');
  });

  it('say so of players that joined in a burst, and not of those a ramp spread', async () => {
    const notesOf = async (rampMs: number) => {
      const { id } = await engine.commands.run('fleets.start', { players: 100, durationMs: 10_000, speed: 10, rampMs });
      let report: FleetReport;
      do {
        await new Promise((resolve) => setTimeout(resolve, 50));
        report = await engine.commands.run('fleets.get', { id });
      } while (report.status === 'running');
      return report.notes;
    };
    expect(await notesOf(0)).toContainEqual(expect.stringMatching(/^100 players joined at once: /));
    expect((await notesOf(10_000)).filter((note) => note.includes('joined'))).toEqual([]);
  });

  it('say so of a fleet whose thread is kept from its core', async () => {
    const { id } = await engine.commands.run('fleets.start', { players: 3, durationMs: 2_500, workers: 1 });
    // The players' thread is this one (one worker plays in-process): kept busy 150 ms in every 200 for 1.6 s.
    const hog = setInterval(() => {
      const until = performance.now() + 150;
      while (performance.now() < until);
    }, 200);
    setTimeout(() => clearInterval(hog), 1_600);
    let report: FleetReport;
    do {
      await new Promise((resolve) => setTimeout(resolve, 100));
      report = await engine.commands.run('fleets.get', { id });
    } while (report.status === 'running');
    expect(report.timerLateness.p99).toBeGreaterThanOrEqual(BUSY_P99_MS);
    expect(report.notes).toContainEqual(
      expect.stringMatching(/^the fleet's own threads were busy: their timers fired [\d.]+ m?s late at p99/),
    );
  });
});
