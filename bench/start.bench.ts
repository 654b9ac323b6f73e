/**
 * Start-up: `serve --ephemeral` of the built CLI (out/cli/bin.js) to its JSON ready line, and its
 * RSS then, side by side with a bare fastify process that listens on 127.0.0.1 and prints a line,
 * in interleaved rounds (aims: at most 2× the bare process's time, at most 80 MB at ready).
 * Each process is started fresh, measured from spawn to its line, and killed. Loopback only;
 * `npm run build` first (the bench says so when out/ is missing).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { printAim } from './aims.js';
import { fmt, median } from './stats.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const root = join(import.meta.dirname, '..');
const cli = join(root, 'out', 'cli', 'bin.js');

/** The bare process: fastify, one route, listening, then a line (as the CLI prints one). */
const BARE = `
const Fastify = require('fastify');
const app = Fastify({ logger: false });
app.get('/', async () => ({ ok: true }));
app.listen({ host: '127.0.0.1', port: 0 }).then(() => process.stdout.write(JSON.stringify({ event: 'ready' }) + '\\n'));
`;

/** RSS in MB from /proc (Linux); null elsewhere. */
function rssMb(pid: number): number | null {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : null;
  } catch {
    return null;
  }
}

async function startOnce(args: string[]): Promise<{ ms: number; rss: number | null }> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const lines = createInterface({ input: child.stdout });
    const timeout = setTimeout(() => child.kill('SIGKILL'), 30_000);
    for await (const line of lines) {
      if (!line.includes('"ready"')) continue;
      const ms = performance.now() - started;
      clearTimeout(timeout);
      return { ms, rss: rssMb(child.pid!) };
    }
    throw new Error(`${args.join(' ')} ended before its ready line`);
  } finally {
    child.kill('SIGKILL');
  }
}

if (!existsSync(cli)) {
  console.log('out/cli/bin.js is missing: run `npm run build` first');
  process.exit(0);
}
const runs = { bare: [] as { ms: number; rss: number | null }[], serve: [] as { ms: number; rss: number | null }[] };
for (let round = 0; round < ROUNDS; round++) {
  runs.bare.push(await startOnce(['-e', BARE]));
  runs.serve.push(await startOnce([cli, 'serve', '--ephemeral', '--port', '0']));
}
const row = (label: string, xs: { ms: number; rss: number | null }[]) => {
  const rss = xs.flatMap((x) => (x.rss === null ? [] : [x.rss]));
  console.log(
    `    ${label.padEnd(34)} ${fmt(median(xs.map((x) => x.ms))).padStart(5)} ms median (runs ${xs.map((x) => fmt(x.ms)).join(', ')}); RSS ${rss.length ? `${fmt(median(rss))} MB` : 'not measured'}`,
  );
};
console.log(`start to the ready line, ${ROUNDS} interleaved rounds`);
row('bare fastify process', runs.bare);
row('serve --ephemeral (built CLI)', runs.serve);
const ratio = median(runs.serve.map((x) => x.ms)) / median(runs.bare.map((x) => x.ms));
printAim('serve --ephemeral to ready vs bare fastify', ratio, '×', { atMost: 2 });
const rss = runs.serve.flatMap((x) => (x.rss === null ? [] : [x.rss]));
if (rss.length) printAim('serve --ephemeral RSS at ready', median(rss), 'MB', { atMost: 80 });
