/**
 * Load generator for the benchmarks: autocannon in a process of its own, so that it never takes
 * the event loop of the servers it measures. Input on stdin: `{url, headers?, connections,
 * seconds, paths?, announce?, timeline?}` (`paths`: rotate through these paths and queries, one per
 * request).
 * Output: autocannon's result as one JSON line, after 1 s of warm-up.
 *
 * `announce: true`: a first line `{"measuring": <epoch ms>}` when the measured part starts (for
 * benches that read the servers' CPU over it). `timeline: true` (for benches that change the
 * server while it is loaded) announces too, and the result carries `timeline: {start, bucketMs,
 * counts}`, responses counted per 50 ms by wall-clock time: a listener on every response, which
 * slows the client, so only where the buckets are read.
 */
import autocannon from 'autocannon';
import { text } from 'node:stream/consumers';

const BUCKET_MS = 50;
const { url, headers = {}, connections, seconds, paths, timeline, announce } = JSON.parse(await text(process.stdin));
let next = 0;
const requests = paths
  ? [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }]
  : undefined;
const options = { url, headers, connections, requests };
await autocannon({ ...options, duration: 1 });
const start = Date.now();
const counts = [];
const run = autocannon({ ...options, duration: seconds });
if (timeline || announce) process.stdout.write(`${JSON.stringify({ measuring: start })}\n`);
if (timeline) {
  run.on('response', () => {
    const bucket = Math.floor((Date.now() - start) / BUCKET_MS);
    counts[bucket] = (counts[bucket] ?? 0) + 1;
  });
}
const result = await run;
if (timeline) result.timeline = { start, bucketMs: BUCKET_MS, counts: Array.from(counts, (n) => n ?? 0) };
process.stdout.write(`${JSON.stringify(result)}\n`);
