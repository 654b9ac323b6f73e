/**
 * An admin body of many small values is refused as it is scanned (json-in-turns.ts): 100 MB of
 * `1,1,1,…` sent to `POST /admin/api/bundles/import` took the console down out of memory, and
 * 10–60 MB held every listener 0.7–6.4 s (audit), where console.md §9 allows 250 ms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueSummary } from '../api/queue-types.js';
import type { Engine } from '../index.js';
import { admin, rawRequest, startTestEngine } from '../testing/http.js';
import { probeStalls } from '../testing/stall-probe.js';
import { MAX_JSON_VALUES } from '../http/json-depth.js';

/** What the test's client writes in one turn. */
const SLICE = 1_048_576;

describe('an admin body of more values than any call takes', () => {
  let engine: Engine;
  let queue: QueueSummary;
  beforeAll(async () => {
    engine = await startTestEngine({ dataDir: null, clockSpeed: 0 });
    queue = (
      await admin(engine, 'POST', '/queues', { items: [{ track: { name: 'One', mediaUrl: 'https://m/1.mp3' } }] })
    ).body as QueueSummary;
  });
  afterAll(() => engine.close());

  it('is refused 413, holding no listener more than 250 ms, and the console goes on', async () => {
    const values = MAX_JSON_VALUES + 1_000_000;
    const text = `{"format":"cloud-queue-console/repro-bundle","version":2,"pad":[${'1,'.repeat(values - 1)}1]}`;
    // Sent a MiB a turn: the probe runs in this process, and fetch copied the whole 42 MB body
    // at once (38 ms) and held the loop 44 ms more, stalls counted against the console that a
    // client on another machine never makes it pay (a CI run measured 254.7 ms against 250).
    const parts = Array.from({ length: Math.ceil(text.length / SLICE) }, (_, i) =>
      text.slice(i * SLICE, (i + 1) * SLICE),
    );
    const probe = probeStalls(`${queue.queueBaseUrl}version`, { headers: { authorization: queue.httpAuthorization } });
    const response = await rawRequest(`${engine.urls.console}/admin/api/bundles/import`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${engine.adminToken}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
      },
      body: parts,
      between: () => new Promise((resolve) => setImmediate(resolve)),
    });
    const stalls = await probe.stop();
    expect(response.status).toBe(413);
    expect(response.body).toMatch(/more than 20,000,000 JSON values/);
    expect(Math.max(...stalls)).toBeLessThan(250);
    expect((await admin(engine, 'GET', `/queues/${queue.id}`)).status).toBe(200);
  }, 60_000);
});
