/**
 * A bundle exported after a restart on the same data dir: the traffic log and the players'
 * transitions persist, the journal begins anew. A span whose calls all came after the start is
 * checked (audit V10: the log's entries from before the restart put the span's start before it,
 * and every transition went unchecked, so that the bundle passed with its skip deleted); one that
 * really straddles the start says, player by player, what it cannot check.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BundleImportResult, ReproBundle } from '../api/bundle-types.js';
import type { ControlExchange } from '../api/commands/player.js';
import type { QueueSummary } from '../api/queue-types.js';
import type { ScenarioReport } from '../api/scenario-types.js';
import { sampleTracks } from '../cloud-queue/samples.js';
import type { Engine } from '../index.js';
import { adminOk, advanceClock, controlSend, startTestEngine } from '../testing/http.js';
import { tempDirs } from '../testing/temp-dirs.js';
import { sinceConsoleStart } from './console-start.js';

const engines: Engine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});
const dataDir = tempDirs('cqc-console-start-');

async function started(dir: string | null): Promise<Engine> {
  const engine = await startTestEngine({ clockSpeed: 0, dataDir: dir });
  engines.push(engine);
  return engine;
}

const send = (engine: Engine, path: string, body?: unknown) => controlSend<ControlExchange>(engine, path, body);
const advance = advanceClock;
const ok = adminOk;

/** A session on `group`, the queue loaded on it, an engine second to play, then a skip. */
async function loadAndSkip(engine: Engine, group: string, queueId: string): Promise<void> {
  // Its URL as this start serves it: each start listens on a port of its own.
  const queue = await ok<QueueSummary>(engine, 'GET', `/queues/${queueId}`);
  const { sessionId } = (
    await send(engine, `/api/v1/groups/${group}/playbackSession:1`, { appId: 'com.example.restart', appContext: 'qa' })
  ).body as { sessionId: string };
  const load = await send(engine, `/api/v1/playbackSessions/${sessionId}/playbackSession:1/loadCloudQueue`, {
    queueBaseUrl: queue.queueBaseUrl,
    httpAuthorization: queue.httpAuthorization,
    playOnCompletion: true,
  });
  expect(load.status).toBe(200);
  await advance(engine, 1_000);
  await ok(engine, 'POST', `/players/player-${group.slice('group-'.length)}/actions`, { action: 'skipNext' });
  await advance(engine, 2_000);
}

async function replayed(bundle: ReproBundle): Promise<ScenarioReport> {
  const target = await started(null);
  const imported = await ok<BundleImportResult>(target, 'POST', '/bundles/import', bundle);
  return ok<ScenarioReport>(target, 'POST', `/scenarios/${imported.scenario.id}/run`);
}

const newQueue = (engine: Engine) =>
  ok<QueueSummary>(engine, 'POST', '/queues', {
    name: 'Restart queue',
    items: sampleTracks(1, 8).map((track) => ({ track })),
    playbackPolicies: { limitedSkips: true },
  });

describe('a bundle exported after the console restarted', () => {
  it('checks a session wholly after the start, and fails its replay without the skip', async () => {
    const dir = dataDir();
    const before = await started(dir);
    const queue = await newQueue(before);
    await advance(before, 5_000);
    await before.close();
    const source = await started(dir);
    await advance(source, 1_000);
    await loadAndSkip(source, 'group-kitchen', queue.id);

    const bundle = await ok<ReproBundle>(source, 'POST', '/bundles/export', {});
    expect(bundle.notes.filter((note) => note.includes('console started'))).toEqual([]);
    expect(bundle.scenario.steps).toContainEqual(
      expect.objectContaining({
        type: 'expect',
        playerId: 'player-kitchen',
        transitions: expect.arrayContaining(['load-begins', 'skip-asks-server']),
      }),
    );
    expect((await replayed(bundle)).passed).toBe(true);

    const withoutSkip = structuredClone(bundle);
    withoutSkip.scenario.steps = withoutSkip.scenario.steps.filter((s) => s.type !== 'action');
    expect((await replayed(withoutSkip)).passed).toBe(false);
  });

  it('says what it cannot check of a player that played before the start, and checks the others', async () => {
    const dir = dataDir();
    const before = await started(dir);
    const queue = await newQueue(before);
    await loadAndSkip(before, 'group-kitchen', queue.id);
    await before.close();
    const source = await started(dir);
    await advance(source, 1_000);
    await loadAndSkip(source, 'group-office', queue.id);

    const bundle = await ok<ReproBundle>(source, 'POST', '/bundles/export', {});
    expect(bundle.notes).toContainEqual(
      expect.stringMatching(
        /^player-kitchen: .* not checked: the console started at .*calls before that were not journaled/,
      ),
    );
    const expects = bundle.scenario.steps.flatMap((s) => (s.type === 'expect' ? [s.playerId] : []));
    expect(expects).toEqual(['player-office']);
    expect((await replayed(bundle)).passed).toBe(true);
  });
});

describe('sinceConsoleStart', () => {
  const t = (playerId: string, at: number, cause = 'command') => ({ playerId, at, cause });

  it('leaves a span that began after the start as it is', () => {
    expect(sinceConsoleStart([t('kitchen', 50)], 100, 200, 100)).toEqual({ from: 100, notes: [] });
  });

  it('begins the span at the start, naming the players it moved before it (timer rows are never checked)', () => {
    const transitions = [
      t('kitchen', 40),
      t('kitchen', 55),
      t('kitchen', 60, 'timer'),
      t('office', 70, 'timer'),
      t('office', 150),
    ];
    const { from, notes } = sinceConsoleStart(transitions, 50, 200, 100);
    expect(from).toBe(100);
    expect(notes).toEqual([expect.stringMatching(/^kitchen: its 1 transition of the span before .* not checked/)]);
  });

  it('never begins after the span ends', () => {
    expect(sinceConsoleStart([], 50, 80, 100).from).toBe(80);
  });
});
