/**
 * Requests that fail on the fleet's own machine (EMFILE: the process's open files used up) never
 * reached the server: the server did not get the load asked for, so no threshold is judged, each
 * saying why, and the verdict is the fleet's, not the server's (outsider: 20,000 players on a
 * machine that let a process open 20,000 files failed `errors<1%` with 6,004 EMFILE).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseThresholds } from '../api/thresholds.js';
import { systemWall } from '../clock/wall.js';
import type { HttpTransport } from '../player/client.js';
import { keepAliveTransport } from '../player/http-transport.js';
import { StubCloudQueue } from '../testing/stub-cloud-queue.js';
import { Fleet } from './fleet.js';
import { baseUrlQueues } from './queues.js';
import { fleetVerdict } from './verdict.js';

const THRESHOLDS = ['errors<50%', 'p99<60s'];

let server: StubCloudQueue;
beforeAll(async () => {
  server = await new StubCloudQueue().start();
});
afterAll(() => server.close());

/** A fleet whose transport fails `failing` of its first requests as the machine's own limit would. */
async function playedWith(failing: number) {
  const http = keepAliveTransport();
  let sent = 0;
  const transport: HttpTransport = (request) =>
    ++sent <= failing
      ? Promise.reject(
          new Error('request failed', {
            cause: Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' }),
          }),
        )
      : http.transport(request);
  const parsed = parseThresholds(THRESHOLDS);
  if (!parsed.ok) throw new Error(parsed.message);
  const fleet = new Fleet({
    id: `fleet-own-${failing}`,
    input: { players: 2, durationMs: 20_000, workers: 1, speed: 20, thresholds: THRESHOLDS },
    thresholds: parsed.thresholds,
    wall: systemWall,
    startAt: Date.now(),
    faults: { add: () => ({}) as never, remove: () => true, decide: () => null },
    queues: baseUrlQueues(server.baseUrl, undefined),
    transport,
    log: () => null,
    onTick: () => undefined,
  });
  try {
    await fleet.start();
    for (let i = 0; i < 100 && fleet.running; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    return fleet.report();
  } finally {
    http.close();
  }
}

it('judges no threshold when requests failed on its own machine, and says why', async () => {
  const report = await playedWith(1);
  expect(report.status).toBe('finished');
  expect(report.totals.requests).toBeGreaterThan(1);
  expect(report.thresholds).toEqual(
    THRESHOLDS.map((expression) =>
      expect.objectContaining({
        expression,
        ok: false,
        notJudged:
          'not judged: 1 request failed on this machine before reaching the server (EMFILE ×1): raise ulimit -n or play fewer players',
      }),
    ),
  );
  // The run is no pass: it could not put the load asked for on the server.
  expect(fleetVerdict(report)).toBe('fail');
  expect(report.notes.some((note) => note.startsWith('1 request failed on this machine'))).toBe(true);
});

it('judges them as usual when every request left the machine', async () => {
  const report = await playedWith(0);
  expect(report.thresholds.map(({ ok, notJudged }) => [ok, notJudged])).toEqual([
    [true, undefined],
    [true, undefined],
  ]);
  expect(fleetVerdict(report)).toBe('pass');
});
