/**
 * The event stream lets go of a reader that falls far behind (docs/contract/console.md §9). The
 * attack: a subscriber that stops reading while events pour in made the engine buffer every
 * event (+155 MB).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EventBus } from '../events/bus.js';
import { PLAYER_MAX_BODY_BYTES } from '../player/client.js';
import { EventStreams, MAX_LAG_BYTES } from './sse.js';

const LIMIT = 1024 * 1024;
let server: Server | null = null;
let client: Socket | null = null;
afterEach(async () => {
  client?.destroy();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(null)));
  server = null;
});

/** A bus, its streams on a loopback listener (with `maxLagBytes`, or the console's own), and the server's side of the one stream opened. */
async function streamsOn(maxLagBytes: number | 'the console’s' = LIMIT): Promise<{
  bus: EventBus;
  streams: EventStreams;
  port: number;
  response: Promise<ServerResponse>;
}> {
  const bus = new EventBus();
  const streams = new EventStreams(bus, maxLagBytes === 'the console’s' ? {} : { maxLagBytes });
  let opened!: (response: ServerResponse) => void;
  const response = new Promise<ServerResponse>((resolve) => (opened = resolve));
  server = createServer((_request, res) => {
    streams.attach(res);
    opened(res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { bus, streams, port: typeof address === 'object' && address ? address.port : 0, response };
}

/** A reader that reads the head of the stream, then nothing more until `resume`. */
function stalledReader(port: number): { received: () => string; resume: () => void; ended: Promise<void> } {
  let text = '';
  let stalled = false;
  client = connect(port, '127.0.0.1');
  client.write('GET /admin/api/events HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
  client.setEncoding('utf8');
  client.on('data', (chunk: string) => {
    text += chunk;
    if (!stalled && text.includes(': connected')) {
      stalled = true;
      client!.pause();
    }
  });
  const ended = new Promise<void>((resolve) => client!.once('close', () => resolve()));
  return { received: () => text, resume: () => client!.resume(), ended };
}

const warning = (message: string) => ({ source: 'traffic-log' as const, message, firstAt: 0, lastAt: 0, count: 1 });

describe('a subscriber of the event stream that stops reading', () => {
  it('is dropped once it falls more than the limit behind, with a last line saying why, and memory stays bounded', async () => {
    const { bus, port, response } = await streamsOn();
    const reader = stalledReader(port);
    const res = await response;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const payload = 'x'.repeat(10_000);
    const rssBefore = process.memoryUsage().rss;
    let mostWaiting = 0;
    let sentAfterDrop = 0;
    // 20,000 events of 10 KB: 200 MB, were they all kept for the reader.
    for (let i = 0; i < 20_000; i++) {
      bus.emit('engine.warning', warning(`${i} ${payload}`));
      mostWaiting = Math.max(mostWaiting, res.writableLength);
      // Once dropped, the reader reads again: it gets what was waiting and the last line, then the end.
      if (res.writableEnded && sentAfterDrop++ === 0) reader.resume();
      // Lets the socket take what it can, as the engine's event loop would between events.
      if (i % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const grown = process.memoryUsage().rss - rssBefore;
    expect(res.writableEnded).toBe(true);
    // Dropped early, and no longer subscribed: the rest went nowhere.
    expect(sentAfterDrop).toBeGreaterThan(15_000);
    expect(bus.wants('engine.warning')).toBe(false);
    // What waited never passed the limit by more than the event that crossed it and the last line.
    expect(mostWaiting).toBeLessThan(LIMIT + 11_000 + 200);
    expect(grown).toBeLessThan(64 * 1024 * 1024);

    await reader.ended;
    expect(reader.received()).toMatch(
      /: dropped: this stream would hold \d+\.\d MB unread, more than the 1048576 bytes a reader may fall behind; connect again to go on\n\n(\r\n0\r\n\r\n)?$/,
    );
  });

  it('keeps a reader that keeps up, however many events come', async () => {
    const { bus, port, response } = await streamsOn();
    const reader = countingReader(port);
    const res = await response;
    const payload = 'y'.repeat(10_000);
    for (let i = 0; i < 1_000; i++) {
      bus.emit('engine.warning', warning(`${i} ${payload}`));
      // A reader that keeps up: never more than a few events behind.
      while (reader.events() < i - 4) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(res.writableEnded).toBe(false);
    expect(bus.wants('engine.warning')).toBe(true);
    await reader.reached(1_000);
  });

  it('takes one event larger than the limit whole to a reader that keeps up, and goes on', async () => {
    const { bus, port, response } = await streamsOn();
    const reader = countingReader(port);
    const res = await response;
    const huge = 'h'.repeat(3 * LIMIT);
    bus.emit('engine.warning', warning(huge));
    bus.emit('engine.warning', warning('after'));
    await reader.reached(2);
    expect(res.writableEnded).toBe(false);
    expect(reader.hs()).toBeGreaterThanOrEqual(3 * LIMIT);
  });
});

it("keeps a reader that keeps up through two player changes of the largest window in one turn (audit: 4 MB dropped the console's page)", async () => {
  const { bus, port, response } = await streamsOn('the console’s');
  const reader = countingReader(port);
  const res = await response;
  // A player's change carries its window twice, up to the player's cap each time.
  const change = 'h'.repeat(2 * PLAYER_MAX_BODY_BYTES);
  bus.emit('engine.warning', warning(change));
  bus.emit('engine.warning', warning(change));
  bus.emit('engine.warning', warning('after'));
  await reader.reached(3);
  expect(res.writableEnded).toBe(false);
  expect(MAX_LAG_BYTES).toBeGreaterThanOrEqual(2 * 2 * PLAYER_MAX_BODY_BYTES);
}, 20_000);

describe('readers of the event stream that stop reading, and a large event', () => {
  it('hold no copy each of it: one text for all, a piece each in the sockets', async () => {
    const bus = new EventBus();
    const streams = new EventStreams(bus, { maxLagBytes: LIMIT });
    const responses: ServerResponse[] = [];
    server = createServer((_request, res) => {
      streams.attach(res);
      responses.push(res);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const readers = Array.from({ length: 10 }, () => {
      const socket = connect(port, '127.0.0.1');
      socket.write('GET /admin/api/events HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
      socket.once('data', () => socket.pause());
      return socket;
    });
    try {
      while (responses.length < 10) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const external = () => process.memoryUsage().external + process.memoryUsage().arrayBuffers;
      const before = external();
      // 16 MB of text: written whole, each socket kept its own copy of what the kernel did not take.
      bus.emit('engine.warning', warning('w'.repeat(16 * LIMIT)));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(external() - before).toBeLessThan(10 * LIMIT);
      // What comes after it counts: past the limit all ten are let go, mid-event, without a last line.
      for (let i = 0; i < 11; i++) bus.emit('engine.warning', warning('n'.repeat(LIMIT / 10)));
      expect(responses.every((res) => res.destroyed || res.socket === null || res.socket.destroyed)).toBe(true);
      expect(bus.wants('engine.warning')).toBe(false);
    } finally {
      for (const socket of readers) socket.destroy();
    }
  });
});

/** A reader that reads everything at once, counting the events begun and the letters `h` it got. */
function countingReader(port: number): {
  events: () => number;
  hs: () => number;
  reached: (n: number) => Promise<void>;
} {
  const marker = 'event: engine.warning\n';
  let events = 0;
  let hs = 0;
  let carry = '';
  client = connect(port, '127.0.0.1');
  client.write('GET /admin/api/events HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
  client.setEncoding('utf8').on('data', (chunk: string) => {
    // The carry is shorter than the marker: no match is counted twice.
    const text = carry + chunk;
    for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + 1)) events++;
    carry = text.slice(-(marker.length - 1));
    for (let at = chunk.indexOf('h'); at !== -1; at = chunk.indexOf('h', at + 1)) hs++;
  });
  const reached = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => (events >= n ? resolve() : setTimeout(check, 5));
      check();
    });
  return { events: () => events, hs: () => hs, reached };
}
