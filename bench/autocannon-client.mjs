/**
 * Load generator for the benchmarks: autocannon in a process of its own, so that it never takes
 * the event loop of the servers it measures. Input on stdin: `{url, headers?, connections,
 * seconds, paths?}` (`paths`: rotate through these paths and queries, one per request). Output:
 * autocannon's result as one JSON line. 1 s of warm-up first.
 */
import autocannon from 'autocannon';
import { text } from 'node:stream/consumers';

const { url, headers = {}, connections, seconds, paths } = JSON.parse(await text(process.stdin));
let next = 0;
const requests = paths ? [{ setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] }) }] : undefined;
const options = { url, headers, connections, requests };
await autocannon({ ...options, duration: 1 });
const result = await autocannon({ ...options, duration: seconds });
process.stdout.write(`${JSON.stringify(result)}\n`);
