/**
 * The attacks on the traffic log's size and on the listeners' time (docs/contract/console.md §9):
 * requests made large on purpose grow the log's file by a bounded amount (headers and bodies cut
 * and noted as cut, a byte budget beside the entry cap), and a default HAR export of 10,000 large
 * entries never holds up a queue's `GET /version` for 250 ms. All requests go to the console's
 * own listeners on loopback, a bounded number of them.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { HarLog } from '../api/har-types.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { TrafficEntry, TrafficSettings } from '../api/traffic-types.js';
import { TRAFFIC_RETENTION_BYTES_MIN } from '../api/traffic-types.js';
import { sampleTracks } from '../cloud-queue/samples.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { tempDirs } from '../testing/temp-dirs.js';
import { MAX_BODY_BYTES, MAX_HEADER_VALUE_BYTES } from './cut.js';
import type { HarTooLarge } from './har-export.js';
import { TRAFFIC_LOG_FILE } from './log/index.js';

const freshDir = tempDirs('cqc-traffic-bounds-');
const MB = 1024 * 1024;

/** `count` requests, `at` a time. */
async function inParallel(count: number, at: number, request: (i: number) => Promise<Response>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await (await request(i)).arrayBuffer();
  };
  await Promise.all(Array.from({ length: at }, worker));
}

/** A queue's `GET /version` round trips for as long as `work` runs: two players asking one after another. */
async function versionRoundTrips(queue: QueueSummary, work: Promise<unknown>): Promise<number[]> {
  const headers = { authorization: queue.httpAuthorization };
  let done = false;
  void work.finally(() => (done = true));
  const latencies: number[] = [];
  const player = async () => {
    while (!done) {
      const started = performance.now();
      await (await fetch(`${queue.queueBaseUrl}version`, { headers })).arrayBuffer();
      latencies.push(performance.now() - started);
      await sleep(1);
    }
  };
  await Promise.all([player(), player()]);
  return latencies;
}

/** The log file's size once what was captured is written (a read flushes it). */
async function logFileSize(engine: Engine, dataDir: string): Promise<number> {
  await admin(engine, 'GET', '/traffic?limit=1');
  return statSync(join(dataDir, TRAFFIC_LOG_FILE)).size;
}

describe('requests made large on purpose', () => {
  it(
    '5,000 requests with a 15 KB header grow the log by a bounded amount, each cut and noted as cut',
    { timeout: 120_000 },
    async () => {
      const dataDir = freshDir();
      const engine = await startTestEngine({ dataDir });
      try {
        const before = await logFileSize(engine, dataDir);
        const junk = 'j'.repeat(15_000);
        await inParallel(5_000, 16, (i) =>
          fetch(`${engine.urls.cloudQueue}/queues/nope-${i}/v2.3/version`, { headers: { 'x-junk': junk } }),
        );
        const grown = (await logFileSize(engine, dataDir)) - before;
        // Kept whole, they made 75 MB or more.
        expect(grown).toBeLessThan(15 * MB);

        const [entry] = (await admin(engine, 'GET', '/traffic?target=cloudQueue&limit=1')).body as TrafficEntry[];
        expect(entry!.requestHeaders['x-junk']).toBe('j'.repeat(MAX_HEADER_VALUE_BYTES));
        expect(entry!.cut).toEqual({ requestHeaders: { kept: expect.any(Number), size: expect.any(Number) } });
        expect(entry!.cut!.requestHeaders!.size - entry!.cut!.requestHeaders!.kept).toBe(
          15_000 - MAX_HEADER_VALUE_BYTES,
        );

        // A body is cut at 64 KiB, and says what it was.
        const largeBody = JSON.stringify({ pad: 'p'.repeat(100_000) });
        await fetch(`${engine.urls.console}/admin/api/commands/clock.get`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${engine.adminToken}`,
            'content-type': 'application/json',
            'x-request-id': 'large-body',
          },
          body: largeBody,
        });
        const [large] = (await admin(engine, 'GET', '/traffic?requestId=large-body')).body as TrafficEntry[];
        expect(large!.cut).toEqual({ requestBody: { kept: MAX_BODY_BYTES, size: largeBody.length } });
        expect(large!.requestBody).toHaveLength(MAX_BODY_BYTES);
      } finally {
        await engine.close();
      }
    },
  );

  it(
    'are dropped, oldest segments first, once the log passes its byte budget, well before the entry cap',
    { timeout: 120_000 },
    async () => {
      const dataDir = freshDir();
      const engine = await startTestEngine({ dataDir });
      try {
        const settings = (
          await admin(engine, 'PATCH', '/traffic/settings', { retentionBytes: TRAFFIC_RETENTION_BYTES_MIN })
        ).body as TrafficSettings;
        expect(settings).toEqual({ retention: 100_000, retentionBytes: TRAFFIC_RETENTION_BYTES_MIN, capture: true });
        expect((await admin(engine, 'PATCH', '/traffic/settings', { retentionBytes: 1_000 })).status).toBe(400);
        // 400 bodies of 60 kB: 24 MB, 400 entries.
        const body = JSON.stringify({ pad: 'p'.repeat(60_000) });
        await inParallel(400, 8, (i) =>
          fetch(`${engine.urls.console}/admin/api/commands/clock.get`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${engine.adminToken}`,
              'content-type': 'application/json',
              'x-request-id': `big-${i}`,
            },
            body,
          }),
        );
        const size = await logFileSize(engine, dataDir);
        // Read in pages: one answer carries at most 8 MiB (TRAFFIC_LIST_MAX_BYTES).
        const kept: TrafficEntry[] = [];
        for (;;) {
          const since = kept.length ? `&since=${kept.at(-1)!.id}` : '';
          const page = (await admin(engine, 'GET', `/traffic?target=console&limit=5000${since}`))
            .body as TrafficEntry[];
          if (page.length === 0) break;
          kept.push(...page);
        }
        expect(kept.length).toBeGreaterThan(100);
        expect(kept.length).toBeLessThan(400);
        // The newest are the ones kept.
        expect(kept.map((e) => e.requestId)).toContain('big-399');
        expect(size).toBeLessThan(TRAFFIC_RETENTION_BYTES_MIN + 8 * MB);
      } finally {
        await engine.close();
      }
    },
  );
});

describe('a HAR export', () => {
  it(
    'of 10,000 large entries (the default) never holds up a queue’s GET /version for 250 ms, and says how many fit',
    { timeout: 180_000 },
    async () => {
      const engine = await startTestEngine();
      try {
        const queue = (
          await admin(engine, 'POST', '/queues', {
            name: 'Large windows',
            items: sampleTracks(1, 100).map((track) => ({ track })),
          })
        ).body as QueueSummary;
        const headers = { authorization: queue.httpAuthorization };
        // About 12 kB answers: 10,000 of them make well over 100 MB of HAR.
        await inParallel(10_000, 16, () =>
          fetch(`${queue.queueBaseUrl}itemWindow?reason=refresh&upcomingWindowSize=60`, { headers }),
        );

        const probe = (work: Promise<unknown>) => versionRoundTrips(queue, work);
        // Read as bytes while probing; parsed after (the parse is this test's, not the engine's).
        const exportHar = (body: unknown) =>
          fetch(`${engine.urls.console}/admin/api/traffic/har`, {
            method: 'POST',
            headers: { authorization: `Bearer ${engine.adminToken}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }).then(async (response) => ({ status: response.status, bytes: await response.arrayBuffer() }));

        const refusing = exportHar({});
        const whileRefusing = await probe(refusing);
        const refused = await refusing;
        expect(refused.status).toBe(400);
        const { error } = JSON.parse(Buffer.from(refused.bytes).toString('utf8')) as {
          error: { message: string; details: HarTooLarge };
        };
        expect(error.message).toMatch(
          /the newest 10,000 entries make more than \d+ MB of HAR.*ask with "limit": \d+.*GET \/admin\/api\/traffic\?since=<id>&limit=<n> reads every entry in pages/,
        );
        const { fits } = error.details;
        expect(fits).toBeGreaterThan(100);
        expect(fits).toBeLessThan(10_000);

        const exporting = exportHar({ limit: fits });
        const whileExporting = await probe(exporting);
        const exported = await exporting;
        expect(exported.status).toBe(200);
        expect((JSON.parse(Buffer.from(exported.bytes).toString('utf8')) as HarLog).log.entries).toHaveLength(fits);

        const latencies = [...whileRefusing, ...whileExporting];
        // Enough answers to have been asked all along; a quicker export leaves fewer (24 once in CI).
        expect(latencies.length).toBeGreaterThan(12);
        expect(Math.max(...latencies), JSON.stringify(latencies.map(Math.round))).toBeLessThan(250);
      } finally {
        await engine.close();
      }
    },
  );
  it(
    'of 5,000 large entries, a GET /traffic or a bundle export never holds up GET /version for 250 ms, and says how to read on',
    { timeout: 180_000 },
    async () => {
      const engine = await startTestEngine();
      try {
        const queue = (
          await admin(engine, 'POST', '/queues', {
            name: 'Large windows',
            items: sampleTracks(1, 100).map((track) => ({ track })),
          })
        ).body as QueueSummary;
        const headers = { authorization: queue.httpAuthorization };
        // About 12 kB answers: 5,000 of them make about 60 MB of entries.
        await inParallel(5_000, 16, () =>
          fetch(`${queue.queueBaseUrl}itemWindow?reason=refresh&upcomingWindowSize=60`, { headers }),
        );
        const probe = (work: Promise<unknown>) => versionRoundTrips(queue, work);
        const call = (method: string, path: string, body?: unknown) =>
          fetch(`${engine.urls.console}/admin/api${path}`, {
            method,
            headers: {
              authorization: `Bearer ${engine.adminToken}`,
              ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            body: body === undefined ? undefined : JSON.stringify(body),
          }).then(async (response) => ({ status: response.status, bytes: await response.arrayBuffer() }));

        const listing = call('GET', `/traffic?target=cloudQueue&limit=5000`);
        const whileListing = await probe(listing);
        const listed = await listing;
        expect(listed.status).toBe(200);
        expect(listed.bytes.byteLength).toBeLessThan(9 * MB);
        const first = JSON.parse(Buffer.from(listed.bytes).toString('utf8')) as TrafficEntry[];
        expect(first.length).toBeGreaterThan(100);
        expect(first.length).toBeLessThan(5_000);
        // The rest is read on with `since`, as for any page.
        const next = JSON.parse(
          Buffer.from(
            (await call('GET', `/traffic?target=cloudQueue&limit=5000&since=${first.at(-1)!.id}`)).bytes,
          ).toString('utf8'),
        ) as TrafficEntry[];
        expect(next[0]!.id).toBeGreaterThan(first.at(-1)!.id);

        const exporting = call('POST', '/bundles/export', {});
        const whileExporting = await probe(exporting);
        const exported = await exporting;
        expect(exported.status).toBe(200);
        const bundle = JSON.parse(Buffer.from(exported.bytes).toString('utf8')) as { har: HarLog; notes: string[] };
        expect(bundle.har.log.entries.length).toBeLessThan(5_000);
        expect(bundle.notes.some((note) => /the HAR holds the newest [\d,]+ of the [\d,]+ entries/.test(note))).toBe(
          true,
        );

        const latencies = [...whileListing, ...whileExporting];
        expect(latencies.length).toBeGreaterThan(4);
        expect(Math.max(...latencies), JSON.stringify(latencies.map(Math.round))).toBeLessThan(250);
      } finally {
        await engine.close();
      }
    },
  );
});
