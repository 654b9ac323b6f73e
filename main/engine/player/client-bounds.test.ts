/**
 * The player reads no answer past its byte cap, nor parses one nested past the depth limit
 * (docs/contract/console.md §9): a 20 MB window is a violation that names the size, and the load
 * it answered fails like one with a malformed window; 4 MB of nested brackets costs milliseconds.
 */
import { createServer } from 'node:http';
import { deflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineClock } from '../clock/clock.js';
import { ManualWall } from '../testing/manual-wall.js';
import { keepAliveTransport } from './http-transport.js';
import { playerHarness, type PlayerHarness } from '../testing/player-harness.js';
import { tracks } from '../testing/stub-cloud-queue.js';
import { CloudQueueClient, PLAYER_MAX_BODY_BYTES, type HttpResponse } from './client.js';

/** The cap, and the window's own size as its Content-Length said it. */
const SIZE =
  /the answer was over 8 MB \(8,388,608 bytes\) and was cut there \(its Content-Length said 2\d(\.\d)? MB \(2\d,\d{3},\d{3} bytes\)\)$/;

let h: PlayerHarness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('the player reads a server’s answers under bounds', () => {
  it('turns a 20 MB window into a violation naming the size, and the load fails', async () => {
    h = await playerHarness({ items: tracks(30) });
    const items = tracks(150_000);
    const window = { includesBeginningOfQueue: true, includesEndOfQueue: true, queueVersion: 'v1', items };
    expect(JSON.stringify(window).length).toBeGreaterThan(20 * 1_048_576);
    h.stub.script('itemWindow', { status: 200, body: window });
    const loaded = await h.load().then(
      () => 'loaded',
      (error: Error) => error.message,
    );
    expect(loaded).toMatch(/over 8 MB/);

    const [exchange] = h.exchanges.filter((e) => e.endpoint === 'itemWindow');
    expect(exchange!.status).toBeUndefined();
    expect(exchange).toMatchObject({
      failure: { kind: 'other', status: 200, message: expect.stringMatching(SIZE) },
      violations: [
        {
          endpoint: 'itemWindow',
          severity: 'malformed',
          rule: 'itemWindow.size',
          message: expect.stringMatching(SIZE),
        },
      ],
    });
    // Nothing of it was read: the Content-Length said enough.
    expect(exchange!.responseBody).toBe('');
    expect(PLAYER_MAX_BODY_BYTES).toBe(8 * 1_048_576);
  });

  it('refuses 4 MB of nested brackets as a violation in milliseconds, without parsing it', async () => {
    h = await playerHarness({ items: tracks(30) });
    h.stub.script('itemWindow', {
      status: 200,
      body: Buffer.alloc(4 * 1_048_576, '[').toString(),
      headers: { 'content-type': 'application/json' },
    });
    const client = new CloudQueueClient({ playerId: 'player-test', clock: h.clock });
    const started = performance.now();
    const result = await client.itemWindow(
      { queueBaseUrl: h.stub.baseUrl },
      { reason: 'load', previousWindowSize: 0, upcomingWindowSize: 10 },
    );
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.exchange.status).toBeUndefined();
    expect(result).toMatchObject({
      ok: false,
      failure: { kind: 'other', status: 200 },
      exchange: {
        violations: [
          {
            rule: 'itemWindow.depth',
            message:
              'status 200, but the answer nests more than 100 JSON arrays and objects inside one another, deeper than the console reads',
          },
        ],
      },
    });
  });
});

describe('an answer whose body does not end', () => {
  /** A status line and headers, then a body that never ends (until the request is given up). */
  const endless = async (): Promise<HttpResponse> => ({
    status: 200,
    headers: new Headers({ 'content-type': 'application/json' }),
    text: () => new Promise<string>(() => undefined),
    body: new ReadableStream<Uint8Array>({ pull: () => new Promise<void>(() => undefined) }),
  });

  it('is no complete response, and says that its status came: the server answered, then stalled', async () => {
    h = await playerHarness({ items: tracks(3) });
    let giveUp!: () => void;
    const client = new CloudQueueClient({
      playerId: 'player-test',
      clock: h.clock,
      transport: endless,
      // The 10 s are up when the test says so.
      timeouts: {
        setTimeout: (fire) => ((giveUp = fire), 1),
        clearTimeout: () => undefined,
      },
    });
    const asked = client.context({ queueBaseUrl: h.stub.baseUrl });
    await new Promise((resolve) => setTimeout(resolve, 20));
    giveUp();
    const result = await asked;
    expect(result).toMatchObject({
      ok: false,
      failure: { kind: 'incomplete', message: 'no complete response within 10 s (its 200 came; the body did not end)' },
      exchange: { responseHeaders: { 'content-type': 'application/json' } },
    });
    expect(result.exchange.status).toBeUndefined();
  });
});

describe('an answer whose body is not in the coding it names', () => {
  it('says so, as an answer no client reads, not as a body that broke off (audit)', async () => {
    // Raw DEFLATE, without the zlib header that Content-Encoding: deflate means (RFC 9110 §8.4.1.2);
    // then plain JSON labelled br.
    let coding: 'deflate' | 'br' = 'deflate';
    const json = '{"playbackPolicies":{}}';
    const server = createServer((_request, response) =>
      response
        .writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding })
        .end(coding === 'deflate' ? deflateRawSync(json) : json),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const http = keepAliveTransport();
    try {
      const client = new CloudQueueClient({
        playerId: 'player-test',
        clock: new EngineClock({ wall: new ManualWall(), speed: 0 }),
        transport: http.transport,
      });
      const queueBaseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/q/`;
      for (const [label, why] of [
        ['deflate', 'incorrect header check'],
        ['br', 'Decompression failed'],
      ] as const) {
        coding = label;
        expect(await client.context({ queueBaseUrl }), label).toMatchObject({
          ok: false,
          failure: {
            kind: 'incomplete',
            unreadable: true,
            message: `its 200 came, but its body is not in the Content-Encoding it names (${why})`,
          },
        });
      }
    } finally {
      http.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
