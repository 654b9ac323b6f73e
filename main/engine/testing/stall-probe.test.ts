/**
 * The probe asks from a thread of its own: a turn that holds this thread's loop must still show
 * whole in its spans, or every bound the timing files hold would pass a listener that stalls.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeStalls } from './stall-probe.js';

const server = createServer((request, response) => {
  response.statusCode = request.url === '/busy' ? 503 : 200;
  response.end(JSON.stringify({ url: request.url }));
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/version`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Holds this thread's loop for `ms`, computing (a stall counts this process's CPU). */
function hold(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('probeStalls', () => {
  it("counts a turn that holds this thread's loop whole, and says what was in the slowest span", async () => {
    const bodies: string[] = [];
    const probe = await probeStalls(url, { seen: (body) => bodies.push(body) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    hold(300);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const spans = await probe.stop();
    // Most of the 300 ms: the probe's thread notes an answer when its own loop gets to it, and on a
    // loaded 2-core machine the answer before the hold was noted 11 ms late (289 ms, CI 7 December).
    expect(Math.max(...spans)).toBeGreaterThanOrEqual(250);
    // Between the turns held, the answers came a few ms apart.
    expect(spans.filter((ms) => ms < 100).length).toBeGreaterThan(3);
    expect(probe.account(1)).toMatch(/^\d+ \(wall \d+, CPU \d+, GC \d+, from \d+\.\d s\)$/);
    expect(JSON.parse(bodies[0]!)).toEqual({ url: '/version' });
  });

  it('waits for one turn of the work between answers, as a player on another machine, not for two or more', async () => {
    const probe = await probeStalls(url);
    // Work in 40 ms turns for a second: between turns the listener answers. Asked from this loop,
    // each round trip took the client's turns too: a span was two turns here (a median of 84 ms),
    // four to six in the engine's own tests; from a thread of its own, one (41 ms).
    const until = performance.now() + 1_000;
    while (performance.now() < until) {
      hold(40);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const spans = (await probe.stop()).sort((a, b) => a - b);
    expect(spans.length).toBeGreaterThan(5);
    expect(spans[Math.floor(spans.length / 2)], spans.map(Math.round).join(', ')).toBeLessThan(62);
  });

  it('fails the test on an answer other than 200', async () => {
    const probe = await probeStalls(url.replace('/version', '/busy'));
    await expect(probe.stop()).rejects.toThrow(/answered 503/);
  });
});
