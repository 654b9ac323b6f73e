/**
 * Target `player`: faults injected inside the player's client, so they work against any cloud
 * queue server (here a stub that knows nothing of them). Each action, and the scope rules.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FaultRuleInput } from '../api/fault-types.js';
import { EngineClock } from '../clock/clock.js';
import { ManualWall } from '../testing/manual-wall.js';
import { EventBus } from '../events/bus.js';
import { DEFAULT_RETRY_AFTER_SEC } from '../cloud-queue/errors.js';
import { BUFFERING_MS } from '../player/audio.js';
import { fetchTransport } from '../player/client.js';
import { openStore } from '../store/store.js';
import { playerHarness, type PlayerHarness } from '../testing/player-harness.js';
import { tracks } from '../testing/stub-cloud-queue.js';
import { faultingTransport } from './player-transport.js';
import { FaultRegistry } from './registry.js';

let h: PlayerHarness;
let faults: FaultRegistry;
afterEach(() => h.close());

async function playing(rules: FaultRuleInput[] = [], policies = {}) {
  const store = openStore({ dataDir: null });
  h = await playerHarness(
    { items: tracks(30, 60_000), policies },
    {
      transport: (clock) => {
        faults = new FaultRegistry({ repo: store.faultRules, clock, bus: new EventBus() });
        return faultingTransport(fetchTransport, faults, clock);
      },
    },
  );
  for (const rule of rules) faults.add(rule);
  return h;
}

describe('faults in the player\u2019s client', () => {
  it('status: a 503 with Retry-After that never reaches the server, retried per §7.2', async () => {
    await playing(
      [
        {
          target: 'player',
          match: { path: '/itemWindow', reason: 'skipNext' },
          action: { type: 'status', status: 503, retryAfter: 4 },
          times: 2,
        },
      ],
      { notifyUserIntent: true },
    );
    await h.load();
    await h.advance(BUFFERING_MS);
    const skip = h.player.act('skipNext', 'user');
    await h.advance(8_000);
    await skip;
    const tries = h.exchanges.filter((e) => e.reason === 'skipNext');
    expect(tries.map((e) => [e.status, e.fault?.action ?? null, e.startedAt - tries[0]!.startedAt])).toEqual([
      [503, 'status', 0],
      [503, 'status', 4_000],
      [200, null, 8_000],
    ]);
    expect(h.stub.sent('itemWindow', 'skipNext')).toHaveLength(1); // only the try that was let through
    expect(faults.list()[0]).toMatchObject({ hits: 2, spent: true });
  });

  it('status: a 503 whose rule names no Retry-After still carries one, and the player waits that long', async () => {
    await playing(
      [
        {
          target: 'player',
          match: { path: '/itemWindow', reason: 'skipNext' },
          action: { type: 'status', status: 503 },
          times: 1,
        },
      ],
      { notifyUserIntent: true },
    );
    await h.load();
    await h.advance(BUFFERING_MS);
    const skip = h.player.act('skipNext', 'user');
    await h.advance(DEFAULT_RETRY_AFTER_SEC * 1_000);
    await skip;
    const tries = h.exchanges.filter((e) => e.reason === 'skipNext');
    expect(
      tries.map((e) => [e.status, e.responseHeaders?.['retry-after'] ?? null, e.startedAt - tries[0]!.startedAt]),
    ).toEqual([
      [503, String(DEFAULT_RETRY_AFTER_SEC), 0],
      [200, null, DEFAULT_RETRY_AFTER_SEC * 1_000],
    ]);
  });

  it('drop: an incomplete request, retried 2 s later', async () => {
    await playing(
      [{ target: 'player', match: { path: '/itemWindow', reason: 'skipNext' }, action: { type: 'drop' }, times: 1 }],
      { limitedSkips: true },
    );
    await h.load();
    await h.advance(BUFFERING_MS);
    const skip = h.player.act('skipNext', 'user');
    await h.advance(2_000);
    await skip;
    expect(h.exchanges.filter((e) => e.reason === 'skipNext').map((e) => e.failure?.kind ?? 'ok')).toEqual([
      'incomplete',
      'ok',
    ]);
  });

  it('timeout: no answer until the player gives up after 10 s of engine time', async () => {
    await playing([{ target: 'player', match: { path: '/version' }, action: { type: 'timeout' }, times: 1 }]);
    await h.load();
    await h.advance(BUFFERING_MS + 10 * 60_000);
    await h.advance(10_000);
    const versions = h.exchanges.filter((e) => e.endpoint === 'version');
    expect(versions[0]).toMatchObject({
      durationMs: 10_000,
      fault: { action: 'timeout' },
      failure: { kind: 'incomplete' },
    });
    expect(versions[1]).toMatchObject({ status: 200 });
  });

  it('latency: the answer arrives that many engine ms late', async () => {
    await playing([
      {
        target: 'player',
        match: { path: '/itemWindow', reason: 'refresh' },
        action: { type: 'latency', ms: 3_000 },
        times: 1,
      },
    ]);
    await h.load();
    await h.advance(BUFFERING_MS);
    h.player.refresh();
    await h.advance(2_999);
    expect(h.rows()).not.toContain('window-answered');
    await h.advance(1);
    expect(h.rows()).toContain('window-answered');
    expect(h.exchanges.find((e) => e.reason === 'refresh')).toMatchObject({
      durationMs: 3_000,
      fault: { action: 'latency' },
    });
  });

  it('latency: the request’s signal ends the wait, and the request never goes out (ui-x3 U6)', async () => {
    const store = openStore({ dataDir: null });
    const clock = new EngineClock({ wall: new ManualWall(), speed: 0 });
    const registry = new FaultRegistry({ repo: store.faultRules, clock, bus: new EventBus() });
    registry.add({ target: 'player', match: { path: '/version' }, action: { type: 'latency', ms: 60_000 } });
    const sent: string[] = [];
    const transport = faultingTransport(
      (request) => {
        sent.push(request.url);
        return Promise.reject(new Error('not here'));
      },
      registry,
      clock,
    );
    const stop = new AbortController();
    const answer = transport({ method: 'GET', url: 'http://127.0.0.1:9/q/version', headers: {}, signal: stop.signal });
    stop.abort(new Error('the run was stopped'));
    await expect(answer).rejects.toThrow('the run was stopped');
    expect(sent).toEqual([]);
    clock.close();
    store.close();
  });

  it('malformed: a 200 the player cannot read is another server error (§7.2), reported as a violation', async () => {
    await playing([
      { target: 'player', match: { path: '/itemWindow', reason: 'load' }, action: { type: 'malformed' } },
    ]);
    await expect(h.load()).rejects.toMatchObject({ errorCode: 'ERROR_CLOUD_QUEUE_SERVER' });
    expect(h.exchanges.at(-1)!.violations[0]).toMatchObject({ severity: 'malformed' });
  });
});
