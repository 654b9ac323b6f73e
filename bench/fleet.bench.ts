/**
 * The fleet on one machine (docs/fleet.md): N players of the console's own core at speed 1,
 * split over W worker threads (default one per core), against the reference cloud queue server
 * in another process, for 1,000 and 10,000 players by default, 60 s each (the issue's 10-minute
 * run is `--seconds 120,600`: 1,000 for two minutes, then 10,000 for ten). Prints, per size: bytes per player (the fleet process's RSS, every
 * thread, once every player joined, less what it held before), players per core (players × wall
 * time / CPU time of this process, all its threads), requests per second, and how late the
 * players' engine-clock timers fire at p99 (the fleet's own probe: a timer every 100 ms in each
 * thread, on the clock its players' timers share). Aims: under 100 KB a player, timers late by
 * under 50 ms at p99. Prints numbers; never fails on them.
 *
 * `npm run bench -- fleet [--players 1000,10000] [--seconds 60 | 120,600] [--ramp 30] [--workers W]`
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createEngine } from '../main/engine/index.js';
import { systemWall } from '../main/engine/clock/wall.js';
import { defaultWorkers, Fleet } from '../main/engine/fleet/fleet.js';
import type { FleetStartInput } from '../main/engine/api/fleet-types.js';
import { sampleTracks } from '../main/engine/cloud-queue/samples.js';
import { printAim } from './aims.js';

/** Queues on the server: players share them round the table (each player still has its own session). */
const QUEUES = 200;

interface Ready {
  queues: { queueBaseUrl: string; httpAuthorization: string }[];
}

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : (process.argv[at + 1] ?? fallback);
}

if (process.argv.includes('--server')) await serve();
else await drive();

/** The child: a console whose reference server the fleet plays, its queues made up front. */
async function serve(): Promise<void> {
  const engine = await createEngine({ dataDir: null, port: 0 });
  const queues: Ready['queues'] = [];
  for (let i = 0; i < QUEUES; i++) {
    const queue = await engine.commands.run('queues.create', {
      name: `bench ${i + 1}`,
      items: sampleTracks(i * 20 + 1, 20).map((track) => ({ track })),
    });
    queues.push({ queueBaseUrl: queue.queueBaseUrl, httpAuthorization: queue.httpAuthorization });
  }
  // The server's own log of every fleet request is not what is measured here.
  await engine.commands.run('traffic.configure', { capture: false });
  process.send!({ queues } satisfies Ready);
  process.on('message', () => void engine.close().then(() => process.exit(0)));
}

async function drive(): Promise<void> {
  const sizes = option('players', '1000,10000').split(',').map(Number);
  // One duration for every size, or one per size (`--seconds 120,600`; the last goes on for the rest).
  const durations = option('seconds', '60').split(',').map(Number);
  const secondsOf = (i: number) => durations[Math.min(i, durations.length - 1)]!;
  const rampSeconds = Number(option('ramp', '30'));
  const workers = Number(option('workers', String(defaultWorkers())));
  console.log(
    `fleet: ${sizes.map((n, i) => `${n} players for ${secondsOf(i)} s`).join(', then ')}, at speed 1 on ${workers} worker thread(s) (ramp ${rampSeconds} s)`,
  );
  const results: { players: number; bytes: number; perCore: number; rps: number; lateP99: number }[] = [];
  for (const [i, players] of sizes.entries()) {
    const child = fork(fileURLToPath(import.meta.url), ['--server'], {
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    });
    const ready = await new Promise<Ready>((resolve) => child.once('message', (m) => resolve(m as Ready)));
    try {
      results.push(await measure(players, workers, secondsOf(i) * 1_000, rampSeconds * 1_000, ready));
    } finally {
      child.send('close');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }
  for (const r of results)
    console.log(
      `  ${r.players.toLocaleString('en-US')} players: ${Math.round(r.bytes / 1024)} KB a player, ${Math.round(r.perCore).toLocaleString('en-US')} players a core, ${r.rps.toFixed(0)} requests/s, timers late ${r.lateP99.toFixed(1)} ms at p99`,
    );
  if (results.length > 1) {
    const [a, b] = [results[0]!, results.at(-1)!];
    console.log(
      `  from ${a.players} to ${b.players}: bytes a player ×${(b.bytes / a.bytes).toFixed(2)}, requests/s ×${(b.rps / a.rps).toFixed(2)}, timer lateness ×${(b.lateP99 / Math.max(a.lateP99, 0.1)).toFixed(2)}`,
    );
  }
  const biggest = results.at(-1)!;
  printAim(`fleet bytes a player (${biggest.players})`, biggest.bytes / 1024, 'KB', { atMost: 100 });
  printAim(`fleet timers late at p99 (${biggest.players})`, biggest.lateP99, 'ms', { atMost: 50 });
}

async function measure(players: number, workers: number, durationMs: number, rampMs: number, ready: Ready) {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage();
  const input: FleetStartInput = { players, durationMs, rampMs, speed: 1, workers };
  const fleet = new Fleet({
    id: `bench-${players}`,
    input,
    thresholds: [],
    wall: systemWall,
    startAt: Date.now(),
    faults: { add: () => ({}) as never, remove: () => true, decide: () => null },
    queues: {
      queueOf: (n) => ({ ...ready.queues[(n - 1) % ready.queues.length]!, playOnCompletion: true }),
    },
    log: () => null,
    onTick: () => undefined,
  });
  await fleet.start();
  // The most the process held while it played (every thread), read once a second.
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 1_000);
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  // Memory once all joined and their loads settled.
  await new Promise((resolve) => setTimeout(resolve, Math.min(rampMs + 10_000, durationMs - 1_000)));
  gc?.();
  const after = process.memoryUsage();
  const bytes = (after.rss - before.rss) / players;
  await fleet.done;
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - wall0;
  clearInterval(sampler);
  const report = fleet.report();
  const cpuMs = (cpu.user + cpu.system) / 1_000;
  console.log(
    `  ${players}: ${report.workers} threads, ${report.players.byState.PLAYING} PLAYING at the end, ${report.totals.requests} requests, ${report.totals.errors} errors (${report.totals.transportErrors} transport), ${report.totals.violations} violations, request p99 ${report.latency.p99} ms; timers late p50 ${report.timerLateness.p50} ms p99 ${report.timerLateness.p99} ms max ${report.timerLateness.max} ms; rss ${Math.round(after.rss / 1_048_576)} MB once joined (main heap ${Math.round(after.heapUsed / 1_048_576)} MB), at most ${Math.round(peak / 1_048_576)} MB while it played`,
  );
  return {
    players,
    bytes,
    perCore: (players * wallMs) / Math.max(cpuMs, 1),
    rps: (report.totals.requests * 1_000) / report.elapsed.wallMs,
    lateP99: report.timerLateness.p99,
  };
}
