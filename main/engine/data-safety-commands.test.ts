/**
 * The attack of docs/contract/console.md §9 on every admin call: each command of the command
 * table is called once over the admin API, as a script would (so the traffic log captures it),
 * the revealing ones included (`bundles.export` with `reveal`, `oauth.revealCode`, `traffic.get`
 * and `traffic.har` with `reveal`), and then every file under the data dir is searched for every
 * secret the console issued or was given, while it runs and after it stopped. The queue's own
 * token is a needed column of console.sqlite: it is looked for in every other file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandNames, type CommandInput, type CommandName, type CommandOutput } from './api/commands.js';
import type { QueueSummary } from './api/queue-types.js';
import type { Engine } from './index.js';
import { admin, startTestEngine } from './testing/http.js';
import {
  authorizeParams,
  authorizeUrl,
  createTestIntegration,
  grantSecretValues,
  pkceGrantAndRefresh,
  type GrantSecrets,
} from './testing/oauth.js';
import { tempDirs } from './testing/temp-dirs.js';

const freshDir = tempDirs('cqc-data-safety-commands-');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** What the calls learn and later calls need. */
interface Scene {
  engine: Engine;
  grant: GrantSecrets;
  /** Secrets by what they are: every one is looked for on disk. */
  secrets: Record<string, string>;
  /** Secrets the store needs in clear (queue tokens, a signing secret): looked for in every file but console.sqlite's. */
  needed: string[];
  queue: QueueSummary;
  integrationId: string;
  keyId: string;
  redirectUriId: string;
  grantId: string;
  tokenId: string;
  playerId: string;
  groupId: string;
  newPlayerId: string;
  newGroupId: string;
  flowId: string;
  capturedFlowId: string;
  sessionId: string;
  faultId: string;
  scenarioId: string;
  runId: string;
  fleetId: string;
  trafficId: number;
  itemId: string;
  otherItemId: string;
  bundle: unknown;
}

interface Call<N extends CommandName> {
  name: N;
  input: (scene: Scene) => NoInfer<CommandInput<N>> | Promise<NoInfer<CommandInput<N>>>;
  then?: (output: NoInfer<CommandOutput<N>>, scene: Scene) => void | Promise<void>;
}

const call = <N extends CommandName>(name: N, input: Call<N>['input'], then?: Call<N>['then']): Call<N> => ({
  name,
  input,
  ...(then ? { then } : {}),
});

const REMOTE_REDIRECT = 'https://app.example.com/callback';

/** Every command, in an order where each finds what it needs; deletions last. */
const CALLS: Call<CommandName>[] = [
  // First: a log cleared at the end would hide what the calls before it wrote.
  call('traffic.clear', () => ({})),
  call('api.describe', () => ({})),
  call('state.get', () => ({})),
  call('clock.get', () => ({})),
  call('clock.set', () => ({ speed: 1 })),
  call('preferences.get', () => ({})),
  call('preferences.update', () => ({ theme: 'dark' as const, demoDismissed: true })),
  call('players.list', () => ({})),
  call('players.get', (s) => ({ id: s.playerId })),
  call('groups.list', () => ({})),
  call('integrations.list', () => ({ includeSample: true })),
  call('integrations.get', (s) => ({ id: s.integrationId })),
  call('integrations.update', (s) => ({ id: s.integrationId, description: 'edited' })),
  call(
    'integrations.create',
    () => ({ name: 'Remote app', redirectUris: [REMOTE_REDIRECT] }),
    (created, s) => {
      s.secrets.secondClientSecret = created.clientSecret;
    },
  ),
  call(
    'integrations.keys.create',
    (s) => ({
      id: s.integrationId,
      name: 'Second key',
      redirectUris: [REMOTE_REDIRECT],
      eventCallbackUrl: 'http://127.0.0.1:9/events',
    }),
    (issued, s) => {
      // A key with an event callback URL keeps its secret to sign events with: needed, in console.sqlite only.
      s.needed.push(issued.clientSecret);
      s.keyId = issued.key.id;
    },
  ),
  call('integrations.keys.update', (s) => ({
    id: s.integrationId,
    keyId: s.keyId,
    eventCallbackUrl: 'http://127.0.0.1:9/events2',
  })),
  call(
    'integrations.keys.regenerateSecret',
    (s) => ({ id: s.integrationId, keyId: s.keyId }),
    (issued, s) => {
      s.needed.push(issued.clientSecret);
    },
  ),
  call(
    'integrations.redirectUris.add',
    (s) => ({ id: s.integrationId, keyId: s.keyId, uri: 'http://127.0.0.1:9/second' }),
    (view, s) => {
      s.redirectUriId = view.redirectUris.find((uri) => uri.uri === 'http://127.0.0.1:9/second')!.id;
    },
  ),
  call(
    'integrations.grants',
    (s) => ({ id: s.integrationId }),
    (grants, s) => {
      s.grantId = grants[0]!.id;
      s.tokenId = grants[0]!.tokens[0]!.id;
    },
  ),
  call('tokens.expire', (s) => ({ id: s.tokenId })),
  call('settings.get', () => ({})),
  call('settings.update', () => ({ autoApprove: true, captureRedirects: true })),
  call(
    'oauth.flows.start',
    (s) => ({ integrationId: s.integrationId, keyId: s.keyId, redirectUri: REMOTE_REDIRECT, pkce: true }),
    async (started, s) => {
      s.capturedFlowId = started.flowId;
      s.secrets.flowVerifier = started.codeVerifier!;
      // The browser's part: auto-approve answers with the redirect, which the console captures.
      await fetch(started.authorizeUrl, { redirect: 'manual' });
    },
  ),
  call(
    'oauth.revealCode',
    (s) => ({ flowId: s.capturedFlowId }),
    (revealed, s) => {
      s.secrets.revealedCode = revealed.code;
    },
  ),
  call('oauth.sample.start', () => ({})),
  call(
    'oauth.flows.list',
    () => ({ limit: 50 }),
    (flows, s) => {
      s.flowId = flows[0]!.id;
    },
  ),
  call('oauth.flows.get', (s) => ({ id: s.flowId })),
  call('oauth.window.navigated', (s) => ({
    flowId: s.capturedFlowId,
    url: `${REMOTE_REDIRECT}?code=${s.secrets.revealedCode}&state=x`,
    event: 'redirect' as const,
  })),
  call('queues.list', () => ({})),
  call(
    'queues.create',
    () => ({
      name: 'Secrets',
      items: [
        { track: { name: 'One', mediaUrl: 'https://example.com/1.mp3', durationMillis: 200_000 } },
        { track: { name: 'Two', mediaUrl: 'https://example.com/2.mp3', durationMillis: 200_000 } },
      ],
    }),
    (queue, s) => {
      s.queue = queue;
    },
  ),
  call('queues.get', (s) => ({ id: s.queue.id })),
  call('queues.context', (s) => ({ id: s.queue.id })),
  call(
    'queues.token.issue',
    (s) => ({ id: s.queue.id, lifetimeSec: 3600 }),
    (queue, s) => {
      s.queue = queue;
    },
  ),
  call(
    'queues.items.page',
    (s) => ({ id: s.queue.id, offset: 0, limit: 10 }),
    (page, s) => {
      s.itemId = page.items[0]!.id;
      s.otherItemId = page.items[1]!.id;
    },
  ),
  call('queues.items.locate', (s) => ({ id: s.queue.id, itemId: s.itemId })),
  call('queues.items.add', (s) => ({
    id: s.queue.id,
    items: [{ track: { name: 'Three', mediaUrl: 'https://example.com/3.mp3' } }],
  })),
  call('queues.items.generate', (s) => ({ id: s.queue.id, count: 3 })),
  call('queues.items.generate.stop', (s) => ({ id: s.queue.id })),
  call('queues.items.update', (s) => ({ id: s.queue.id, itemId: s.itemId, track: { name: 'One again' } })),
  call('queues.items.move', (s) => ({ id: s.queue.id, itemIds: [s.itemId], afterItemId: null })),
  call('queues.update', (s) => ({ id: s.queue.id, name: 'Secrets edited' })),
  call('control.senders', () => ({})),
  call('control.examples', (s) => ({ groupId: s.groupId })),
  call(
    'control.send',
    (s) => ({
      method: 'POST' as const,
      path: `/api/v1/groups/${s.groupId}/playbackSession:1`,
      body: { appId: 'com.example.secrets', appContext: 'secrets' },
    }),
    (exchange, s) => {
      expect(exchange.status).toBe(200);
      s.sessionId = (exchange.body as { sessionId: string }).sessionId;
    },
  ),
  call(
    'control.send',
    (s) => ({
      method: 'POST' as const,
      path: `/api/v1/playbackSessions/${s.sessionId}/playbackSession:1/loadCloudQueue`,
      body: {
        queueBaseUrl: s.queue.queueBaseUrl,
        httpAuthorization: s.queue.httpAuthorization,
        playOnCompletion: true,
      },
    }),
    async (exchange, s) => {
      expect(exchange.status).toBe(200);
      await expect
        .poll(
          async () =>
            (
              (await admin(s.engine, 'GET', `/players/${s.playerId}`)).body as {
                state?: string;
                playbackState?: string;
              }
            ).playbackState ?? '',
          { timeout: 10_000 },
        )
        .toMatch(/PLAYING|BUFFERING/);
    },
  ),
  call('players.act', (s) => ({ id: s.playerId, action: 'pause' as const })),
  call('players.trigger', (s) => ({ id: s.playerId, request: 'versionPoll' as const })),
  call('players.detail', (s) => ({ id: s.playerId })),
  call('players.transitions', (s) => ({ id: s.playerId, limit: 50 })),
  call('players.violations', (s) => ({ id: s.playerId, limit: 50 })),
  call('players.table', () => ({})),
  call(
    'players.create',
    () => ({ name: 'Secret room' }),
    (player, s) => {
      s.newPlayerId = player.id;
    },
  ),
  call('players.update', (s) => ({ id: s.newPlayerId, name: 'Secret room 2' })),
  call(
    'groups.create',
    (s) => ({ playerIds: [s.newPlayerId] }),
    (group, s) => {
      s.newGroupId = group.id;
    },
  ),
  call('queues.activity', (s) => ({ id: s.queue.id })),
  call('queues.reports', (s) => ({ id: s.queue.id, limit: 10 })),
  call('faults.presets', () => ({})),
  call('faults.applyPreset', () => ({ id: '503-storm' })),
  call(
    'faults.add',
    () => ({
      target: 'cloudQueue' as const,
      match: { path: '/version' },
      action: { type: 'status' as const, status: 503 },
    }),
    (rule, s) => {
      s.faultId = rule.id;
    },
  ),
  call('faults.list', () => ({})),
  call('faults.move', (s) => ({ id: s.faultId, toIndex: 0 })),
  call('faults.trigger', (s) => ({ id: s.faultId })),
  call('events.subscriptions', (s) => ({ id: s.integrationId })),
  call('events.deliveries', (s) => ({ id: s.integrationId, limit: 10 })),
  call('conformance.cases', () => ({})),
  call(
    'conformance.runs.start',
    (s) => ({
      baseUrl: s.queue.queueBaseUrl,
      authorization: `Bearer ${s.secrets.integratorToken}`,
      cases: ['version', 'auth.wrong-token'],
    }),
    async (started, s) => {
      s.runId = started.id;
      await expect
        .poll(
          async () =>
            ((await admin(s.engine, 'GET', `/conformance/runs/${started.id}`)).body as { status: string }).status,
          { timeout: 20_000 },
        )
        .not.toBe('running');
    },
  ),
  call(
    'conformance.runs.rerun',
    (s) => ({ id: s.runId, authorization: `Bearer ${s.secrets.integratorToken}` }),
    async (started, s) => {
      await expect
        .poll(
          async () =>
            ((await admin(s.engine, 'GET', `/conformance/runs/${started.id}`)).body as { status: string }).status,
          { timeout: 20_000 },
        )
        .not.toBe('running');
    },
  ),
  call('conformance.runs.list', () => ({})),
  call('conformance.runs.get', (s) => ({ id: s.runId })),
  call('conformance.runs.export', (s) => ({ id: s.runId, format: 'html' as const })),
  call('conformance.runs.stop', (s) => ({ id: s.runId })),
  call(
    'fleets.start',
    (s) => ({
      players: 2,
      baseUrl: s.queue.queueBaseUrl,
      authorization: `Bearer ${s.secrets.integratorToken}`,
      durationMs: 60_000,
      speed: 10,
    }),
    (started, s) => {
      s.fleetId = started.id;
    },
  ),
  call('fleets.get', (s) => ({ id: s.fleetId })),
  call('fleets.list', () => ({})),
  call('fleets.stop', (s) => ({ id: s.fleetId })),
  call('fleets.export', (s) => ({ id: s.fleetId, format: 'json' as const })),
  call('traffic.settings', () => ({})),
  call('traffic.configure', () => ({ retention: 100_000 })),
  call(
    'traffic.list',
    () => ({ text: 'access_token' }),
    (rows, s) => {
      s.trafficId = rows[0]?.id ?? 1;
    },
  ),
  call('traffic.page', () => ({ offset: 0, limit: 20 })),
  call('traffic.locate', (s) => ({ id: s.trafficId })),
  call('traffic.get', (s) => ({ id: s.trafficId, reveal: true })),
  call('traffic.har', () => ({ reveal: true })),
  call(
    'bundles.export',
    (s) => ({ reveal: true, queueIds: [s.queue.id], name: 'Secrets bundle' }),
    (bundle, s) => {
      s.bundle = bundle;
    },
  ),
  call('bundles.import', (s) => s.bundle),
  call('scenarios.list', () => ({})),
  call(
    'scenarios.save',
    (s) => ({
      name: 'Secrets scenario',
      steps: [
        { type: 'clock' as const, advanceMs: 1_000 },
        {
          type: 'command' as const,
          method: 'GET' as const,
          path: `/api/v1/groups/${s.groupId}/playback:1/playbackStatus`,
        },
      ],
    }),
    (scenario, s) => {
      s.scenarioId = scenario.id;
    },
  ),
  call('scenarios.get', (s) => ({ id: s.scenarioId })),
  call('scenarios.run', (s) => ({ id: s.scenarioId })),
  // Deletions and revocations last.
  call('faults.remove', (s) => ({ id: s.faultId })),
  call('faults.clear', () => ({})),
  call('scenarios.delete', (s) => ({ id: s.scenarioId })),
  call('conformance.runs.delete', (s) => ({ id: s.runId })),
  call('queues.items.delete', (s) => ({ id: s.queue.id, itemId: s.itemId })),
  call('queues.items.remove', (s) => ({ id: s.queue.id, itemIds: [s.otherItemId] })),
  call('groups.delete', (s) => ({ id: s.newGroupId })),
  call('players.delete', (s) => ({ id: s.newPlayerId })),
  call('integrations.redirectUris.remove', (s) => ({
    id: s.integrationId,
    keyId: s.keyId,
    redirectUriId: s.redirectUriId,
  })),
  call('tokens.revoke', (s) => ({ id: s.tokenId })),
  call('grants.revoke', (s) => ({ id: s.grantId })),
  call('integrations.keys.delete', (s) => ({ id: s.integrationId, keyId: s.keyId })),
  call('queues.delete', (s) => ({ id: s.queue.id })),
  call('integrations.delete', (s) => ({ id: s.integrationId })),
] as Call<CommandName>[];

/** Every secret's value found in a file under the data dir, as `what in file`. */
function secretsOnDisk(dataDir: string, secrets: Record<string, string>, needed: string[]): string[] {
  const found: string[] = [];
  for (const file of filesUnder(dataDir)) {
    const bytes = readFileSync(file);
    for (const [what, value] of Object.entries(secrets)) if (bytes.includes(value)) found.push(`${what} in ${file}`);
    if (!/console\.sqlite/.test(file))
      for (const value of needed)
        if (bytes.includes(value)) found.push(`a needed secret (${value.slice(0, 4)}…) in ${file}`);
  }
  return found;
}

describe('data safety of every admin call', () => {
  it('writes no secret the console issued or was given to any file, whichever command was called', async () => {
    const dataDir = freshDir();
    const engine = await startTestEngine({ dataDir });
    try {
      const grant = await pkceGrantAndRefresh(engine);
      const client = await createTestIntegration(engine, { name: 'Captured app', redirectUris: [REMOTE_REDIRECT] });
      const group = ((await admin(engine, 'GET', '/groups')).body as { id: string; coordinatorId: string }[])[0]!;
      const scene = {
        engine,
        grant,
        secrets: {
          adminToken: engine.adminToken,
          integratorToken: `integrator-${randomBytes(24).toString('base64url')}`,
          capturedClientSecret: client.clientSecret,
          ...grantSecretValues(grant),
        },
        needed: [],
        integrationId: grant.client.id,
        playerId: group.coordinatorId,
        groupId: group.id,
      } as unknown as Scene;
      // A code for the integration whose redirect leaves the machine, never exchanged: a secret only the redirect carried.
      const verifier = randomBytes(32).toString('base64url');
      const parked = await fetch(
        authorizeUrl(
          engine,
          authorizeParams(client, {
            redirect_uri: REMOTE_REDIRECT,
            code_challenge: createHash('sha256').update(verifier).digest('base64url'),
            code_challenge_method: 'S256',
          }),
        ),
        { redirect: 'manual' },
      );
      expect(parked.status).toBeLessThan(400);

      const called = new Set<CommandName>();
      for (const step of CALLS) {
        const input = await step.input(scene);
        const { status, body } = await admin(engine, 'POST', `/commands/${step.name}`, input);
        expect(status, `${step.name}: ${JSON.stringify(body)}`).toBeLessThan(300);
        called.add(step.name);
        await step.then?.(body as never, scene);
        if (scene.queue && !scene.needed.includes(scene.queue.accessToken)) scene.needed.push(scene.queue.accessToken);
      }
      expect(commandNames.filter((name) => !called.has(name))).toEqual([]);

      // Reads flush what capture holds: what it wrote so far is in the files (and a WAL).
      await admin(engine, 'GET', '/traffic?limit=1');
      expect(secretsOnDisk(dataDir, scene.secrets, scene.needed)).toEqual([]);
      await engine.close();
      expect(secretsOnDisk(dataDir, scene.secrets, scene.needed)).toEqual([]);
    } finally {
      await engine.close();
    }
  }, 90_000);
});
