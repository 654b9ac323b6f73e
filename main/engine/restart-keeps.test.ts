/**
 * The status bar's words on what a restart keeps (api/restart-keeps.ts), held to the engine: for
 * each line, what it names is made on a console with a data dir, found there, and looked for again
 * on a console started on the same folder. A line kept must be found; a line lost must not be.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { IntegrationView } from './api/oauth-types.js';
import type { QueueSummary } from './api/queue-types.js';
import { RESTART_KEEPS, RESTART_LOSES, type RestartClaimId } from './api/restart-keeps.js';
import { connectedIntegration, controlCall } from './event-delivery/testing.js';
import type { Engine } from './index.js';
import { startTestEngine } from './testing/http.js';
import { tempDirs } from './testing/temp-dirs.js';

const freshDir = tempDirs('cqc-restart-keeps-');
const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

async function start(dataDir: string): Promise<Engine> {
  const engine = await startTestEngine({ dataDir, clockSpeed: 0 });
  engines.push(engine);
  return engine;
}

/** What the first console made that the probes look for on the second. */
interface Made {
  playerId: string;
  itemId: string | null;
  queue: QueueSummary;
  integrationId: string;
  accessToken: string;
  flowCount: number;
  faultId: string;
  scenarioId: string;
  runId: string;
  fleetId: string;
  trafficIds: number[];
}

interface Probe {
  make(engine: Engine, made: Partial<Made>): Promise<void>;
  /** Whether what `make` made is there (before the restart it always is). */
  found(engine: Engine, made: Made): Promise<boolean>;
}

const run = <T = unknown>(engine: Engine, name: string, input: unknown) =>
  (engine.commands.run as (name: string, input: unknown) => Promise<unknown>)(name, input) as Promise<T>;

/** Whether the list a command answers holds an entry with `id`. */
const lists = async (engine: Engine, name: string, id: string | undefined) =>
  (await run<{ id: string }[]>(engine, name, {})).some((entry) => entry.id === id);

const items = Array.from({ length: 6 }, (_, i) => ({
  track: { name: `Kept ${i + 1}`, mediaUrl: `https://media.example.com/${i + 1}.mp3`, durationMillis: 180_000 },
}));

/** Waits for a conformance run to end. */
async function ended(engine: Engine, runId: string): Promise<void> {
  await expect
    .poll(async () => (await run<{ status: string }>(engine, 'conformance.runs.get', { id: runId })).status, {
      timeout: 20_000,
    })
    .not.toBe('running');
}

/** One probe for every line the status bar says: the type holds the table and the probes together. */
const PROBES: Record<RestartClaimId, Probe> = {
  households: {
    async make(engine, made) {
      const player = await run<{ id: string; groupId: string }>(engine, 'players.create', { name: 'Kept Room' });
      made.playerId = player.id;
      // Where it was: playing the second item of a queue.
      made.queue = await run<QueueSummary>(engine, 'queues.create', { name: 'Kept queue', items });
      const send = (path: string, body: unknown) => run(engine, 'control.send', { method: 'POST', path, body });
      const session = (await send(`/api/v1/groups/${player.groupId}/playbackSession`, {
        appId: 'com.example.kept',
        appContext: 'test',
      })) as { body: { sessionId: string } };
      await send(`/api/v1/playbackSessions/${session.body.sessionId}/playbackSession/loadCloudQueue`, {
        queueBaseUrl: made.queue.queueBaseUrl,
        httpAuthorization: made.queue.httpAuthorization,
        itemId: 'item-2',
        playOnCompletion: true,
      });
      await run(engine, 'clock.set', { advanceMs: 1_000 });
      made.itemId = (await run<{ itemId: string | null }>(engine, 'players.get', { id: player.id })).itemId;
      expect(made.itemId).toBe('item-2');
    },
    async found(engine, made) {
      const players = await run<{ id: string; itemId: string | null }[]>(engine, 'players.list', {});
      return players.some((p) => p.id === made.playerId && p.itemId === made.itemId);
    },
  },
  queues: {
    async make(_engine, made) {
      // The queue is the households probe's; a report of its own, as a player posts one.
      const response = await fetch(`${made.queue!.queueBaseUrl}timePlayed`, {
        method: 'POST',
        headers: { authorization: made.queue!.httpAuthorization, 'content-type': 'application/json' },
        body: JSON.stringify({
          items: [
            {
              id: 'item-1',
              mediaUrl: 'https://media.example.com/1.mp3',
              queueVersion: '1',
              durationPlayedMillis: 4_000,
              timeSincePlaybackMillis: 4_000,
              positionMillis: 4_000,
              positionMillisAtSegmentStart: 0,
              type: 'final',
            },
          ],
        }),
      });
      expect(response.status, await response.text()).toBe(204);
    },
    async found(engine, made) {
      if (!(await lists(engine, 'queues.list', made.queue.id))) return false;
      const reports = await run<unknown[]>(engine, 'queues.reports', { id: made.queue.id, limit: 50 });
      return JSON.stringify(reports).includes('"durationPlayedMillis":4000');
    },
  },
  integrations: {
    async make(engine, made) {
      const app = await connectedIntegration(engine, 'http://127.0.0.1:9/events');
      made.integrationId = app.client.id;
      made.accessToken = app.accessToken;
      const subscribed = await controlCall(
        engine,
        app.accessToken,
        'POST',
        '/groups/group-kitchen/groupVolume/subscription',
      );
      expect(subscribed.status).toBe(200);
      made.flowCount = (await run<unknown[]>(engine, 'oauth.flows.list', {})).length;
      expect(made.flowCount).toBeGreaterThan(0);
    },
    async found(engine, made) {
      const integration = await lists(engine, 'integrations.list', made.integrationId);
      const grants = await run<unknown[]>(engine, 'integrations.grants', { id: made.integrationId });
      const subscriptions = await run<unknown[]>(engine, 'events.subscriptions', { id: made.integrationId });
      const flows = await run<unknown[]>(engine, 'oauth.flows.list', {});
      // The token itself: the control API takes it.
      const token = await controlCall(engine, made.accessToken, 'GET', '/households');
      return (
        integration &&
        grants.length > 0 &&
        subscriptions.length > 0 &&
        flows.length >= made.flowCount &&
        token.status === 200
      );
    },
  },
  faults: {
    async make(engine, made) {
      const rule = await run<{ id: string }>(engine, 'faults.add', {
        target: 'cloudQueue',
        match: { path: '/nowhere/version' },
        action: { type: 'status', status: 503 },
      });
      made.faultId = rule.id;
    },
    async found(engine, made) {
      return lists(engine, 'faults.list', made.faultId);
    },
  },
  scenarios: {
    async make(engine, made) {
      const saved = await run<{ id: string }>(engine, 'scenarios.save', {
        name: 'Kept scenario',
        steps: [{ type: 'clock', advanceMs: 1_000 }],
      });
      made.scenarioId = saved.id;
    },
    async found(engine, made) {
      return lists(engine, 'scenarios.list', made.scenarioId);
    },
  },
  checks: {
    async make(engine, made) {
      const started = await run<{ id: string }>(engine, 'conformance.runs.start', {
        baseUrl: made.queue!.queueBaseUrl,
        authorization: made.queue!.httpAuthorization,
        cases: ['version'],
      });
      made.runId = started.id;
      await ended(engine, started.id);
    },
    async found(engine, made) {
      return lists(engine, 'conformance.runs.list', made.runId);
    },
  },
  settings: {
    async make(engine) {
      await run(engine, 'settings.update', { autoApprove: true });
    },
    async found(engine) {
      return (await run<{ autoApprove: boolean }>(engine, 'settings.get', {})).autoApprove;
    },
  },
  traffic: {
    async make(engine, made) {
      const page = await run<{ rows: { id: number }[]; total: number }>(engine, 'traffic.page', {
        offset: 0,
        limit: 5,
      });
      expect(page.total).toBeGreaterThan(0);
      made.trafficIds = page.rows.map((row) => row.id);
    },
    async found(engine, made) {
      const page = await run<{ rows: { id: number }[] }>(engine, 'traffic.page', { offset: 0, limit: 5 });
      return made.trafficIds.every((id) => page.rows.some((row) => row.id === id));
    },
  },
  fleets: {
    async make(engine, made) {
      const started = await run<{ id: string }>(engine, 'fleets.start', {
        players: 2,
        baseUrl: made.queue!.queueBaseUrl,
        authorization: made.queue!.httpAuthorization,
        durationMs: 60_000,
        speed: 10,
      });
      made.fleetId = started.id;
      await run(engine, 'fleets.stop', { id: started.id });
    },
    async found(engine, made) {
      return lists(engine, 'fleets.list', made.fleetId);
    },
  },
  deliveries: {
    async make(engine, made) {
      // The subscription the integrations probe made: a volume change is an event to deliver.
      const volume = await controlCall(engine, made.accessToken!, 'POST', '/groups/group-kitchen/groupVolume', {
        volume: 17,
      });
      expect(volume.status).toBe(200);
      await expect
        .poll(async () => (await run<unknown[]>(engine, 'events.deliveries', { id: made.integrationId })).length)
        .toBeGreaterThan(0);
    },
    async found(engine, made) {
      return (await run<unknown[]>(engine, 'events.deliveries', { id: made.integrationId })).length > 0;
    },
  },
  checkAuthorization: {
    async make() {
      // The checks probe's run sent the queue's Authorization.
    },
    async found(engine, made) {
      try {
        const again = await run<{ id: string }>(engine, 'conformance.runs.rerun', { id: made.runId });
        await ended(engine, again.id);
        return true;
      } catch (error) {
        expect(String(error)).toMatch(/no longer holds/);
        return false;
      }
    },
  },
};

describe('what the status bar says a restart keeps', () => {
  it('is found again on the same data dir, and what it says is lost is not', async () => {
    const dataDir = freshDir();
    const first = await start(dataDir);
    const made: Partial<Made> = {};
    // The later probes use what the earlier made (a queue, an integration, a check run); the
    // traffic last, once the others have made some.
    const order: RestartClaimId[] = [
      'households',
      'queues',
      'integrations',
      'faults',
      'scenarios',
      'checks',
      'settings',
      'fleets',
      'deliveries',
      'checkAuthorization',
      'traffic',
    ];
    expect([...order].sort()).toEqual([...RESTART_KEEPS, ...RESTART_LOSES].map((claim) => claim.id).sort());
    for (const id of order) await PROBES[id].make(first, made);
    for (const id of order) expect(await PROBES[id].found(first, made as Made), `${id} before the restart`).toBe(true);
    await first.close();
    engines.length = 0;

    const second = await start(dataDir);
    const foundAfter: Record<string, boolean> = {};
    for (const id of order) foundAfter[id] = await PROBES[id].found(second, made as Made);
    expect(foundAfter).toEqual({
      ...Object.fromEntries(RESTART_KEEPS.map((claim) => [claim.id, true])),
      ...Object.fromEntries(RESTART_LOSES.map((claim) => [claim.id, false])),
    });
  }, 60_000);
});

describe('the sample integration across a restart', () => {
  /** The sample's one key, as the integrations list shows it (never its secret). */
  const sampleKey = async (engine: Engine) => {
    const listed = await run<IntegrationView[]>(engine, 'integrations.list', { includeSample: true });
    const sample = listed.find((integration) => integration.sample);
    expect(sample?.keys).toHaveLength(1);
    return { integrationId: sample!.id, ...sample!.keys[0]! };
  };

  it('is the same integration and key, with a new secret at each start (the status bar says so)', async () => {
    const dataDir = freshDir();
    const first = await start(dataDir);
    const before = await sampleKey(first);
    await first.close();
    engines.length = 0;

    const after = await sampleKey(await start(dataDir));
    expect({ integrationId: after.integrationId, id: after.id, clientId: after.clientId }).toEqual({
      integrationId: before.integrationId,
      id: before.id,
      clientId: before.clientId,
    });
    // The first characters of a new 256-bit secret: the same six by chance once in 2^36.
    expect(after.secretHint).not.toBe(before.secretHint);
  }, 30_000);
});
