/**
 * An admin body whose whitespace or one string is too long for a turn is refused as it is scanned
 * (json-in-turns.ts): 127 MB of spaces before `{"items":[]}`, or one 127 MB string as a queue's
 * name, held every listener 250–310 ms (audit), where console.md §9 allows 250 ms.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueSummary } from '../api/queue-types.js';
import type { Engine } from '../index.js';
import { admin, rawRequest, startTestEngine } from '../testing/http.js';
import { probeStalls } from '../testing/stall-probe.js';
import { MAX_SPACE_RUN, MAX_STRING_CHARS } from './json-in-turns.js';

/** What the test's client writes in one turn: a client elsewhere never makes the console pay for its copies. */
const SLICE = 1_048_576;
const MB = 1_000_000;

describe('an admin body of a run of whitespace or a string longer than any call takes', () => {
  let engine: Engine;
  let queue: QueueSummary;
  beforeAll(async () => {
    engine = await startTestEngine({ dataDir: null, clockSpeed: 0 });
    queue = (
      await admin(engine, 'POST', '/queues', { items: [{ track: { name: 'One', mediaUrl: 'https://m/1.mp3' } }] })
    ).body as QueueSummary;
  });
  afterAll(() => engine.close());

  /** Sends `head`, `size` bytes of `fill`, then `tail` to POST `path`, a slice a turn, probing the cloud queue listener. */
  async function send(path: string, head: string, fill: string, size: number, tail: string) {
    const slice = fill.repeat(SLICE);
    const parts = [
      head,
      ...Array.from({ length: Math.ceil(size / SLICE) }, (_, i) => slice.slice(0, Math.min(SLICE, size - i * SLICE))),
      tail,
    ];
    const length = parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0);
    const probe = probeStalls(`${queue.queueBaseUrl}version`, { headers: { authorization: queue.httpAuthorization } });
    const response = await rawRequest(`${engine.urls.console}/admin/api${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${engine.adminToken}`,
        'content-type': 'application/json',
        'content-length': String(length),
      },
      body: parts,
      between: () => new Promise((resolve) => setImmediate(resolve)),
    });
    return { response, stalls: await probe.stop() };
  }

  it('refuses 127 MB of spaces before the value, 413, holding no listener 250 ms', async () => {
    const { response, stalls } = await send('/queues', '', ' ', 127 * MB, '{"items":[]}');
    expect(response.status).toBe(413);
    expect(response.body).toMatch(/a run of more than 1 MiB of whitespace at character \d+/);
    expect(Math.max(...stalls)).toBeLessThan(250);
    expect((await admin(engine, 'GET', `/queues/${queue.id}`)).status).toBe(200);
  }, 60_000);

  it('refuses one 127 MB string, 413, holding no listener 250 ms', async () => {
    const { response, stalls } = await send('/queues', '{"name":"', 'A', 127 * MB, '","items":[]}');
    expect(response.status).toBe(413);
    expect(response.body).toMatch(/a string of more than 8 MiB at character 8,/);
    expect(Math.max(...stalls)).toBeLessThan(250);
  }, 60_000);

  it('refuses one 127 MB number, 413, holding no listener 250 ms', async () => {
    const { response, stalls } = await send('/queues', '{"name":"N","n":', '7', 127 * MB, ',"items":[]}');
    expect(response.status).toBe(413);
    expect(response.body).toMatch(/a number or word of more than 1 MiB at character 16,/);
    expect(Math.max(...stalls)).toBeLessThan(250);
  }, 60_000);

  it('takes whitespace and strings up to the bounds in a big body: the bounds refuse nothing JSON a call sends', async () => {
    // 2 MB in all (parsed in turns), a run of spaces just under the bound, a string of 1.5 MB.
    const text = `{"name":"Bounds",${' '.repeat(MAX_SPACE_RUN - 1)}"description":"${'d'.repeat(1_500_000)}","items":[]}`;
    expect(text.length).toBeGreaterThan(2 * MB);
    expect(MAX_STRING_CHARS).toBeGreaterThan(1_500_000);
    const response = await rawRequest(`${engine.urls.console}/admin/api/queues`, {
      method: 'POST',
      headers: { authorization: `Bearer ${engine.adminToken}`, 'content-type': 'application/json' },
      body: [text],
    });
    // Refused by the queue's own rules if at all (a field it does not take), never by the parser's bounds.
    expect(response.body).not.toMatch(/more than any admin call takes|not valid JSON/);
    expect(response.status).toBeLessThan(500);
  }, 60_000);
});
