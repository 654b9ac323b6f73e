/**
 * The Artillery engine on its own, as Artillery's runner drives it (`new Engine(script, ee,
 * helpers)`, `createScenario(spec, ee)(context, done)`), without Artillery: a virtual user plays
 * its time, emits its figures and ends with its player closed; a scenario it cannot play fails its
 * virtual user at once. scripts/artillery-example.test.ts runs it under Artillery itself.
 */
import { EventEmitter } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudQueueEngine } from '../packages/artillery-engine-cloud-queue/src/engine.js';
import { startDefectiveServer, type DefectiveServer } from '../main/engine/conformance/testing/defective-server.js';
import { startSlowProxy } from '../main/engine/testing/slow-proxy.js';

let server: DefectiveServer;
beforeAll(async () => {
  server = await startDefectiveServer({ defects: ['moreThanAsked'] });
});
afterAll(() => server.close());

/** Artillery's template helper, for the `{{ name }}` form only: enough for these scripts. */
const helpers = {
  template: (value: unknown, context: { vars: Record<string, unknown> }) =>
    JSON.parse(
      JSON.stringify(value).replace(/{{\s*(\w+)\s*}}/g, (_, name: string) => String(context.vars[name] ?? '')),
    ) as unknown,
};

/** What one virtual user emitted, and how it ended. */
async function runOne(config: Record<string, unknown>, flow?: unknown[]) {
  const ee = new EventEmitter();
  const counters: Record<string, number> = {};
  const histograms: Record<string, number[]> = {};
  const errors: string[] = [];
  let started = 0;
  ee.on('counter', (name: string, value: number) => (counters[name] = (counters[name] ?? 0) + value));
  ee.on('histogram', (name: string, value: number) => (histograms[name] ??= []).push(value));
  ee.on('error', (code: string) => errors.push(code));
  ee.on('started', () => started++);
  const engine = new CloudQueueEngine({ config: { engines: { 'cloud-queue': config } } }, ee, helpers);
  const scenario = engine.createScenario({ name: 'listen', ...(flow ? { flow } : {}) }, ee);
  const error = await new Promise<Error | null>((resolve) =>
    scenario({ vars: { token: server.authorization }, _uid: 'vu-1' }, (failure) => resolve(failure)),
  );
  return { counters, histograms, errors, started, error };
}

describe('the cloud-queue Artillery engine', () => {
  it('plays one player for its time and emits its figures as metrics, then closes it', async () => {
    const { counters, histograms, errors, started, error } = await runOne(
      { baseUrl: server.baseUrl, authorization: '{{ token }}', speed: 20 },
      [{ play: { seconds: 15 } }],
    );
    expect(error).toBeNull();
    expect(errors).toEqual([]);
    expect(started).toBe(1);
    expect(counters['cloud_queue.requests.context']).toBe(1);
    expect(counters['cloud_queue.requests.itemWindow.load']).toBe(1);
    expect(counters['cloud_queue.codes.itemWindow.200']).toBeGreaterThanOrEqual(1);
    expect(histograms['cloud_queue.latency.itemWindow']).toHaveLength(counters['cloud_queue.requests.itemWindow']!);
    // The server's windows hold one item more than asked: counted by rule, and in the total.
    expect(counters['cloud_queue.violations.itemWindow.window-size']).toBeGreaterThanOrEqual(1);
    expect(counters['cloud_queue.violations']).toBe(counters['cloud_queue.violations.itemWindow.window-size']);
    expect(counters['cloud_queue.players.PLAYING']).toBe(1);
    // Said at 0, so that an `ensure` on it has a value: the window one item too long was used.
    expect(counters['cloud_queue.errors']).toBe(0);
    // Its player is closed: 40 s of its listening later (2 s of wall time; it reports every 30 s) it has sent nothing more.
    const sent = counters['cloud_queue.requests'];
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(counters['cloud_queue.requests']).toBe(sent);
  });

  it('waits for a server that answers in 1.5 s of real time at speed 20, as a fleet does', async () => {
    // At speed 20 a timeout on the engine clock gave a request half a real second (audit AC-2).
    const slow = await startSlowProxy(server.baseUrl, 1_500);
    try {
      const { counters, histograms } = await runOne(
        { baseUrl: slow.baseUrl, authorization: '{{ token }}', speed: 20 },
        [{ play: { seconds: 160 } }],
      );
      expect(counters['cloud_queue.transport_errors']).toBeUndefined();
      expect(counters['cloud_queue.codes.context.200']).toBe(1);
      expect(Math.min(...histograms['cloud_queue.latency.context']!)).toBeGreaterThanOrEqual(1_400);
      expect(counters['cloud_queue.players.PLAYING']).toBe(1);
    } finally {
      await slow.close();
    }
  });

  it('counts what no player could use as errors, as the fleet does: a server that is not there', async () => {
    // The example's `ensure` passed a run whose every request failed (audit AC-5).
    const { counters } = await runOne({ baseUrl: 'http://127.0.0.1:9/', speed: 20 }, [{ play: { seconds: 20 } }]);
    expect(counters['cloud_queue.transport_errors']).toBeGreaterThanOrEqual(1);
    expect(counters['cloud_queue.errors']).toBe(counters['cloud_queue.transport_errors']);
    expect(counters['cloud_queue.errors.context']).toBe(counters['cloud_queue.transport_errors.context']);
    expect(counters['cloud_queue.violations']).toBe(0);
  });

  it('counts a request its server never answered, though its play time ended first: a timeout after 10 s', async () => {
    // Closed at its end, a VU of 10 s or less dropped what it had out: no request, no error (review).
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      const { counters, error } = await runOne(
        { baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, speed: 20 },
        [{ play: { seconds: 20 } }],
      );
      expect(error).toBeNull();
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
      expect(counters['cloud_queue.transport_errors.context']).toBe(1);
      expect(counters['cloud_queue.errors']).toBe(1);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 20_000);

  it('fails a virtual user at once when its scenario cannot be played', async () => {
    const noUrl = await runOne({ speed: 20 });
    expect(noUrl.error?.message).toMatch(/baseUrl \(or config.target\) must be an absolute http\(s\) URL/);
    expect(noUrl.errors).toEqual(['cloud-queue.bad_scenario']);
    expect(noUrl.counters['cloud_queue.requests']).toBeUndefined();

    const badStep = await runOne({ baseUrl: server.baseUrl }, [{ get: { url: '/' } }]);
    expect(badStep.error?.message).toMatch(/each step of a cloud-queue flow is \{ play: \{\.\.\.\} \}/);

    const badRate = await runOne({ baseUrl: server.baseUrl, skipRate: 2 });
    expect(badRate.error?.message).toMatch(/skipRate must be from 0 to 1/);
  });
});
