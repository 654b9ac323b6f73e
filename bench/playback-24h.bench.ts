/**
 * 24 hours of engine-clock playback: about 400 tracks played by one
 * simulated player against the console's own cloud queue server, with every report, version
 * poll and next-window request over real loopback HTTP, in one jump of the engine clock.
 * Prints the wall time it took (aim: under 0.5 s) and what happened on the way, with the CPU
 * time of the process beside it: on a machine other work keeps busy the wall time grows with the
 * load, the CPU time much less, so two runs far apart compare by CPU time.
 * Beside it, the floor (playback-floor.ts): the same day's exchanges sent again over loopback HTTP
 * to a bare server, with nothing else running, the least any player and server spend on the day.
 */
import type { PlayerDetail } from '../main/engine/api/player-types.js';
import type { QueueSummary } from '../main/engine/api/queue-types.js';
import type { TrafficEntry } from '../main/engine/api/traffic-types.js';
import { createEngine } from '../main/engine/index.js';
import { printAim } from './aims.js';
import { replayDay, type Exchange } from './playback-floor.js';

const DAY_MS = 24 * 3_600_000;
const TRACKS = 400;
const TRACK_MS = Math.ceil(DAY_MS / TRACKS); // 216 s
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

async function round(): Promise<{
  wallMs: number;
  cpuMs: number;
  requests: number;
  finals: number;
  polls: number;
  windows: number;
  state: string;
  /** The player's exchanges, oldest first, for the floor. */
  exchanges: Exchange[];
}> {
  const engine = await createEngine({ dataDir: null, port: 0, clockSpeed: 0 });
  try {
    const run = async <T>(name: Parameters<typeof engine.commands.run>[0], input: unknown) =>
      (await engine.commands.run(name, input)) as T;
    const items = Array.from({ length: TRACKS + 5 }, (_, i) => ({
      track: { name: `Track ${i + 1}`, mediaUrl: `https://media.example/${i + 1}.mp3`, durationMillis: TRACK_MS },
    }));
    const queue = await run<QueueSummary>('queues.create', {
      name: 'A day',
      items,
      reports: { sendUpdateAfterMillis: 30_000, periodicIntervalMillis: 60_000 },
    });
    const session = await run<{ body: { sessionId: string } }>('control.send', {
      method: 'POST',
      path: '/api/v1/groups/group-kitchen/playbackSession:1',
      body: { appId: 'bench', appContext: 'day' },
    });
    await run('control.send', {
      method: 'POST',
      path: `/api/v1/playbackSessions/${session.body.sessionId}/playbackSession:1/loadCloudQueue`,
      body: { queueBaseUrl: queue.queueBaseUrl, httpAuthorization: queue.httpAuthorization, playOnCompletion: true },
    });

    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    await run('clock.set', { advanceMs: DAY_MS });
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);

    const detail = await run<PlayerDetail>('players.detail', { id: 'player-kitchen' });
    const traffic = await run<TrafficEntry[]>('traffic.list', { target: 'player', limit: 5_000 });
    return {
      wallMs,
      cpuMs: (cpu.user + cpu.system) / 1000,
      requests: traffic.length,
      finals: traffic.filter((e) => e.path.endsWith('/timePlayed') && e.requestBody?.includes('"final"')).length,
      polls: traffic.filter((e) => e.path.endsWith('/version')).length,
      windows: traffic.filter((e) => e.path.endsWith('/itemWindow')).length,
      state: `${detail.state} on ${detail.itemId}`,
      exchanges: traffic
        .sort((a, b) => a.id - b.id)
        .map((e) => ({
          method: e.method,
          path: new URL(e.url).pathname + new URL(e.url).search,
          requestBody: e.requestBody,
          status: e.status ?? 200,
          responseBody: e.responseBody,
        })),
    };
  } finally {
    await engine.close();
  }
}

console.log(
  `24 h of engine-clock playback: ${TRACKS} tracks of ${TRACK_MS / 1000} s, updates at 30 s then every 60 s; ${ROUNDS} rounds`,
);
const results = [];
for (let i = 0; i < ROUNDS; i++) {
  const result = await round();
  results.push(result);
  console.log(
    `  round ${i + 1}: ${(result.wallMs / 1000).toFixed(2)} s wall, ${(result.cpuMs / 1000).toFixed(2)} s CPU · ${result.requests} player requests (${result.finals} final reports, ${result.polls} version polls, ${result.windows} item windows) · ends ${result.state}`,
  );
}
const best = Math.min(...results.map((r) => r.wallMs));
const median = [...results.map((r) => r.wallMs)].sort((a, b) => a - b)[Math.floor(results.length / 2)]!;
const cpuMedian = [...results.map((r) => r.cpuMs)].sort((a, b) => a - b)[Math.floor(results.length / 2)]!;
console.log(
  `median ${(median / 1000).toFixed(2)} s, best ${(best / 1000).toFixed(2)} s wall (median ${(cpuMedian / 1000).toFixed(2)} s CPU) for 24 h of engine time`,
);
const floors = [];
for (let i = 0; i < ROUNDS; i++) floors.push(await replayDay(results.at(-1)!.exchanges));
const floorMedian = [...floors.map((f) => f.wallMs)].sort((a, b) => a - b)[Math.floor(floors.length / 2)]!;
console.log(
  `floor: the day's ${results.at(-1)!.exchanges.length} exchanges alone over loopback HTTP, bare server: ${floors.map((f) => `${(f.wallMs / 1000).toFixed(2)} s`).join(', ')} wall (CPU ${floors.map((f) => `${(f.cpuMs / 1000).toFixed(2)} s`).join(', ')})`,
);
printAim(
  '24 h of engine-clock playback (wall time, median)',
  median / 1000,
  's',
  { atMost: 0.5 },
  `the floor (the day's HTTP alone) ${(floorMedian / 1000).toFixed(2)} s`,
);
