/**
 * What the traffic log costs a fleet (issue 42: "a fleet bench run with capture on and off side
 * by side"): the same fleet (by default 300 players for 20 s of wall time at speed 100, against
 * the console's own reference server) played in pairs in one run, capture off and on in
 * alternating order (off-on, on-off), so a neighbour's load on the shared machine, and what an
 * earlier fleet left behind (its queues, a fuller log), hit both alike. At speed 10 the 300
 * players sent about 100 requests a second, and the server's CPU went mostly to the fleet's own
 * bookkeeping: capture's share swung from -35% to +18% between runs. At speed 100 they send
 * about 850. Prints, for each: requests per second the server answered, and the engine's CPU per
 * request; then the cost of capture as the ratio of the two.
 *
 * The engine and its fleet run in this process, as `fleets.start` runs them: the players in the
 * fleet's worker threads, the reference server (and the traffic log it captures into) on the
 * main thread. On Linux the main thread's own CPU time is read from /proc, so the figure is the
 * server's and the log's work, not the players'; elsewhere it is the whole process's.
 *
 * `npm run bench -- fleet-capture [--players 300] [--seconds 20] [--speed 100] [--pairs 2]`
 * Prints numbers; never fails on them.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FleetReport } from '../main/engine/api/fleet-types.js';
import { createEngine } from '../main/engine/index.js';
import { printAim } from './aims.js';
import { fmt, median } from './stats.js';

function option(name: string, fallback: string): number {
  const at = process.argv.indexOf(`--${name}`);
  return Number(at === -1 ? fallback : (process.argv[at + 1] ?? fallback));
}
const PLAYERS = option('players', '300');
const SECONDS = option('seconds', '20');
const SPEED = option('speed', '100');
const PAIRS = option('pairs', '2');

/**
 * CPU ms of the main thread (the server's), from /proc on Linux; the whole process's elsewhere.
 * The fleet's players run in worker threads of this process, and their CPU is not the server's.
 */
function serverCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks (USER_HZ, 100 on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  }
}
const mainThreadOnly = (() => {
  try {
    readFileSync(`/proc/self/task/${process.pid}/stat`);
    return true;
  } catch {
    return false;
  }
})();

interface Played {
  capture: boolean;
  requests: number;
  rps: number;
  cpuUsPerRequest: number;
  errors: number;
  /** Statuses other than 2xx, by endpoint (a run with errors measured something else too). */
  failed: string;
}

const engine = await createEngine({ dataDir: null, port: 0, clockSpeed: 0 });

async function play(capture: boolean): Promise<Played> {
  await engine.commands.run('traffic.configure', { capture });
  const started = performance.now();
  const { id } = await engine.commands.run('fleets.start', {
    players: PLAYERS,
    durationMs: SECONDS * 1_000 * SPEED,
    speed: SPEED,
  });
  // Measured from the first look at which every player has joined (its queue made, its session
  // opened) to the end: the start's one-off work is not the traffic's.
  let from: { cpuMs: number; wallMs: number; requests: number } | null = null;
  let report: FleetReport;
  // Bounded: the fleet ends on its own after SECONDS of wall time; it is stopped after twice that.
  for (;;) {
    await sleep(1_000);
    report = await engine.commands.run('fleets.get', { id });
    if (report.status !== 'running') break;
    if (!from && report.players.joined >= PLAYERS)
      from = { cpuMs: serverCpuMs(), wallMs: performance.now(), requests: report.totals.requests };
    if (performance.now() - started > SECONDS * 2_000 + 30_000) {
      report = await engine.commands.run('fleets.stop', { id });
      break;
    }
  }
  const start = from ?? { cpuMs: serverCpuMs(), wallMs: started, requests: 0 };
  const cpuMs = serverCpuMs() - start.cpuMs;
  const wallMs = performance.now() - start.wallMs;
  const requests = report.totals.requests - start.requests;
  return {
    capture,
    requests,
    rps: (requests * 1000) / wallMs,
    cpuUsPerRequest: (cpuMs * 1000) / Math.max(requests, 1),
    errors: report.totals.errors,
    failed: report.endpoints
      .flatMap((e) =>
        Object.entries(e.statuses)
          .filter(([status]) => !status.startsWith('2'))
          .map(([status, n]) => `${e.endpoint} ${status}: ${n}`),
      )
      .join(', '),
  };
}

try {
  console.log(
    `fleet of ${PLAYERS} players, ${SECONDS} s at speed ${SPEED} against the reference server, capture off and on in ${PAIRS} pair(s); CPU of ${mainThreadOnly ? 'the engine’s main thread (server and log)' : 'the whole process'}`,
  );
  const runs: Played[] = [];
  for (let pair = 0; pair < PAIRS; pair++)
    for (const capture of pair % 2 === 0 ? [false, true] : [true, false]) {
      const played = await play(capture);
      runs.push(played);
      console.log(
        `    capture ${capture ? 'on ' : 'off'}: ${fmt(played.requests)} requests, ${fmt(played.rps)} req/s, ${fmt(played.cpuUsPerRequest, 1)} µs engine CPU per request, ${played.errors} errors${played.failed ? ` (${played.failed})` : ''}`,
      );
    }
  const off = runs.filter((r) => !r.capture);
  const on = runs.filter((r) => r.capture);
  const rpsOff = median(off.map((r) => r.rps));
  const rpsOn = median(on.map((r) => r.rps));
  const cpuOff = median(off.map((r) => r.cpuUsPerRequest));
  const cpuOn = median(on.map((r) => r.cpuUsPerRequest));
  console.log(
    `    requests/s on ÷ off: ${fmt(rpsOn / rpsOff, 2)}×; engine CPU per request on ÷ off: ${fmt(cpuOn / cpuOff, 2)}×`,
  );
  // The fleet sets its own pace (its players' timers), so requests/s moves only once the server
  // falls behind; the engine's CPU per request is what capture adds to the work of each.
  printAim('traffic capture cost in a fleet (engine CPU per request)', (1 - cpuOff / cpuOn) * 100, '%', {
    atMost: 10,
  });
} finally {
  await engine.close();
}
