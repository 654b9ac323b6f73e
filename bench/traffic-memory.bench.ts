/**
 * Memory of the traffic log under load: the engine's RSS sampled while
 * GET /itemWindow runs at full speed against its cloud queue server with capture on, the retention
 * cap set low so that it is reached within seconds and every new entry then drops the oldest.
 * Prints every sample and the spread of the samples after warm-up, (max - min) / min (target:
 * flat within 20%). Ten minutes by default; `--minutes 1` for a quick run; `--disk` keeps the
 * log in a data dir instead of in memory (`--ephemeral`, where the whole log lives in RSS).
 * autocannon runs as its own process against 127.0.0.1; the run is bounded by its duration.
 */
import { parseArgs } from 'node:util';
import { itemWindowBench } from './item-window-load.js';
import { runLoad } from './load-client.js';
import { printAim } from './aims.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: process.env.BENCH_MINUTES ?? '10' },
    retention: { type: 'string', default: '20000' },
    disk: { type: 'boolean', default: false },
  },
});
const MINUTES = Number(values.minutes);
const RETENTION = Number(values.retention);
const DURATION_MS = MINUTES * 60_000;
/** A sample every 10 s (every 2 s in runs under two minutes), the first fifth of the run is warm-up. */
const SAMPLE_MS = MINUTES < 2 ? 2_000 : 10_000;
const WARM_UP_MS = Math.max(DURATION_MS / 5, SAMPLE_MS * 3);

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const { engine, dataDir, origin, headers, paths, dispose } = await itemWindowBench(values.disk);
try {
  await engine.commands.run('traffic.configure', { capture: true, retention: RETENTION });
  console.log(
    `GET /itemWindow, 10 connections for ${MINUTES} min, capture on, retention ${RETENTION.toLocaleString('en-US')} entries, log ${dataDir ? 'on disk' : 'in memory'}; RSS every ${SAMPLE_MS / 1000} s, warm-up ${Math.round(WARM_UP_MS / 1000)} s`,
  );

  const finished = runLoad<{ requests: { average: number; total: number }; non2xx: number }>({
    url: origin,
    headers,
    connections: 10,
    seconds: Math.round(DURATION_MS / 1000),
    paths,
  });

  const started = performance.now();
  const samples: { at: number; rss: number }[] = [];
  while (performance.now() - started < DURATION_MS) {
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    const at = performance.now() - started;
    const { rss, heapUsed } = process.memoryUsage();
    const { total } = await engine.commands.run('traffic.page', { offset: 0, limit: 1 });
    samples.push({ at, rss });
    console.log(
      `    ${(at / 1000).toFixed(0).padStart(5)} s  RSS ${mb(rss).padStart(7)} MB  heap ${mb(heapUsed).padStart(6)} MB  log ${total.toLocaleString('en-US').padStart(7)} entries${at < WARM_UP_MS ? '  (warm-up)' : ''}`,
    );
  }
  const result = await finished;

  const steady = samples.filter((s) => s.at >= WARM_UP_MS).map((s) => s.rss);
  const min = Math.min(...steady);
  const max = Math.max(...steady);
  const mean = steady.reduce((a, b) => a + b, 0) / steady.length;
  console.log(
    `    ${result.requests.total.toLocaleString('en-US')} requests (${Math.round(result.requests.average).toLocaleString('en-US')} req/s, non-2xx ${result.non2xx})`,
  );
  console.log(
    `    after warm-up: ${steady.length} samples, RSS min ${mb(min)} MB, max ${mb(max)} MB, mean ${mb(mean)} MB`,
  );
  printAim(
    `traffic log memory, ${RETENTION.toLocaleString('en-US')} entries, ${MINUTES} min of load (spread)`,
    ((max - min) / min) * 100,
    '%',
    { atMost: 20 },
    `mean ${mb(mean)} MB`,
  );
} finally {
  await dispose();
}
