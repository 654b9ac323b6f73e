/**
 * Token exchanges per second at the console's own token endpoint (`POST /login/v3/oauth/access`,
 * grant_type=authorization_code, HTTP Basic, persistence on in a real data dir), side by side with
 * a bare fastify route answering a fixed token response, in the same run.
 *
 * What is measured: only the token requests. Every exchange needs a fresh code, so the server
 * process mints the codes beforehand through the real authorization endpoint (auto-approve), and
 * the driver sends each code exactly once; a run that got anything but 200 is reported as such.
 * The refresh_token grant (rotation on, one fresh refresh token per request, taken from the code
 * exchanges' answers) is measured the same way; each line also says the server's CPU time a request.
 * The floor (token-floor.ts) is measured the same way too: a minimal persisted exchange on bare
 * fastify and better-sqlite3, the most any token endpoint that keeps its tokens reaches here; its
 * ratio is printed beside the aim.
 * Servers run in a child process, the load
 * generator (autocannon) in this one, so the two do not share an event loop.
 *
 * Traffic capture is off, as in item-window.bench.ts: its cost is traffic-capture.bench.ts's
 * measure; `--capture` measures with it on, as shipped. BENCH_EXCHANGES=n sets the number of codes; BENCH_PROF=1 writes a CPU profile of the server
 * process to /tmp/prof.
 */
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printAim } from './aims.js';

const EXCHANGES = Number(process.env.BENCH_EXCHANGES ?? 6_000);
const WARMUP = 500;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/**
 * The bare route answers any body, so its rounds send this many times the exchange's requests:
 * a round of 2,000 at 10,000 a second lasted 0.2 s, and its rate swung 3.7× between rounds of one
 * run (connection set-up and the client's warm-up were most of it).
 */
const BARE_FACTOR = 4;
const CONNECTIONS = 10;
const REDIRECT_URI = 'http://127.0.0.1:9/callback';

interface Measured {
  result: autocannon.Result;
  seconds: number;
  /** The server process's CPU time over the run, in µs (user + system). */
  serverCpu: number;
}

interface Ready {
  tokenUrl: string;
  bareUrl: string;
  authorization: string;
  codes: string[];
  /** The floor (token-floor.ts): its URL, its client's Basic header and its codes. */
  floor: { url: string; authorization: string; codes: string[] };
}

if (process.argv.includes('--server')) await serve();
else await drive();

/** The child: the engine on a real data dir, a bare fastify app, and the codes. */
async function serve(): Promise<void> {
  const [{ createEngine }, { default: Fastify }, { basicHeader }, { startTokenFloor }] = await Promise.all([
    import('../main/engine/index.js'),
    import('fastify'),
    import('../main/engine/login/client-auth/basic-auth.js'),
    import('./token-floor.js'),
  ]);
  const dataDir = mkdtempSync(join(tmpdir(), 'cqc-bench-'));
  const engine = await createEngine({ dataDir, port: 0 });
  await engine.commands.run('traffic.configure', { capture: process.argv.includes('--capture') });
  const bare = Fastify({ logger: false });
  bare.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );
  const fixed = {
    access_token: 'a'.repeat(43),
    token_type: 'Bearer',
    expires_in: 86400,
    refresh_token: 'r'.repeat(43),
    scope: 'playback-control-all',
  };
  bare.post('/token', async (_request, reply) =>
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(fixed),
  );
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const floor = await startTokenFloor(dataDir, EXCHANGES + WARMUP, REDIRECT_URI);
  const close = async () => {
    await bare.close();
    await floor.close();
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('message', (message) => {
    if (message === 'close') void close();
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send!({ cpu: user + system });
    }
  });

  const created = await engine.commands.run('integrations.create', { name: 'Bench', redirectUris: [REDIRECT_URI] });
  await engine.commands.run('settings.update', { autoApprove: true });
  const codes: string[] = [];
  for (let i = 0; i < EXCHANGES + WARMUP; i++) {
    const query = new URLSearchParams({
      client_id: created.clientId!,
      response_type: 'code',
      state: `s${i}`,
      scope: 'playback-control-all',
      redirect_uri: REDIRECT_URI,
    });
    const response = await fetch(`${engine.urls.login}/login/v3/oauth?${query}`, { redirect: 'manual' });
    codes.push(new URL(response.headers.get('location')!).searchParams.get('code')!);
  }
  const address = bare.server.address();
  const ready: Ready = {
    tokenUrl: `${engine.urls.login}/login/v3/oauth/access`,
    bareUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/token`,
    authorization: basicHeader(created.clientId!, created.clientSecret),
    codes,
    floor: { url: floor.url, authorization: floor.authorization, codes: floor.codes },
  };
  process.send!(ready);
}

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** The parent: autocannon against both, bounded by request count. */
async function drive(): Promise<void> {
  const child = fork(
    fileURLToPath(import.meta.url),
    ['--server', ...(process.argv.includes('--capture') ? ['--capture'] : [])],
    {
      execArgv: ['--import', 'tsx', ...(process.env.BENCH_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : [])],
      stdio: 'inherit',
    },
  );
  const ready = await new Promise<Ready>((resolve) => child.once('message', (message) => resolve(message as Ready)));
  /** The server's CPU time so far, in µs: what a request costs it, whoever is the bottleneck. */
  const serverCpu = () =>
    new Promise<number>((resolve, reject) => {
      const ended = () => reject(new Error('the server process ended'));
      child.once('exit', ended);
      child.once('message', (message) => {
        child.off('exit', ended);
        resolve((message as { cpu: number }).cpu);
      });
      child.send('cpu');
    });
  const headersFor = (authorization: string) => ({
    authorization,
    'content-type': 'application/x-www-form-urlencoded;charset=utf-8',
  });
  const headers = headersFor(ready.authorization);
  const codeForm = (code: string) =>
    new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }).toString();
  const refreshTokens: string[] = [];

  /** Sends each body once, in order; collects refresh tokens from 200 answers. */
  const run = async (url: string, bodies: string[], collect = false, sent = headers): Promise<Measured> => {
    let next = 0;
    const cpuBefore = await serverCpu();
    const started = performance.now();
    const result = await autocannon({
      url,
      connections: CONNECTIONS,
      amount: bodies.length,
      // autocannon notices the end of a bounded run at its next sample tick (1 s by default).
      sampleInt: 10,
      requests: [
        {
          method: 'POST',
          headers: sent,
          setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }),
          ...(collect
            ? {
                onResponse: (status: number, body: string) => {
                  if (status === 200) refreshTokens.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
                },
              }
            : {}),
        },
      ],
    });
    const seconds = (performance.now() - started) / 1000;
    return { result, seconds, serverCpu: (await serverCpu()) - cpuBefore };
  };

  const codes = ready.codes.map(codeForm);
  const floorCodes = ready.floor.codes.map(codeForm);
  const floorHeaders = headersFor(ready.floor.authorization);
  const bareBodies = Array.from({ length: WARMUP + EXCHANGES * BARE_FACTOR }, (_, i) => codeForm(`bare-${i}`));
  await run(ready.bareUrl, bareBodies.slice(0, WARMUP));
  await run(ready.tokenUrl, codes.slice(0, WARMUP));
  await run(ready.floor.url, floorCodes.slice(0, WARMUP), false, floorHeaders);

  // Interleaved rounds, so that a burst of load from elsewhere on the machine hits both sides.
  const perRound = Math.floor(EXCHANGES / ROUNDS);
  const runs: Record<'bare' | 'floor' | 'exchange' | 'refresh', Measured[]> = {
    bare: [],
    floor: [],
    exchange: [],
    refresh: [],
  };
  for (let round = 0; round < ROUNDS; round++) {
    const slice = (list: string[], size = perRound) => list.slice(WARMUP + round * size, WARMUP + (round + 1) * size);
    runs.bare.push(await run(ready.bareUrl, slice(bareBodies, perRound * BARE_FACTOR)));
    runs.floor.push(await run(ready.floor.url, slice(floorCodes), false, floorHeaders));
    refreshTokens.length = 0;
    runs.exchange.push(await run(ready.tokenUrl, slice(codes), true));
    runs.refresh.push(
      await run(
        ready.tokenUrl,
        refreshTokens.map((token) =>
          new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token }).toString(),
        ),
      ),
    );
  }
  child.send('close');

  // autocannon's own duration is in whole samples; the wall time is exact.
  const rate = ({ result, seconds }: Measured) => result.requests.total / seconds;
  const middle = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const median = (measured: Measured[]) => middle(measured.map(rate));
  const cpuPerRequest = (measured: Measured[]) => middle(measured.map((m) => m.serverCpu / m.result.requests.total));
  const line = (name: string, measured: Measured[]) => {
    const ok = measured.reduce((n, m) => n + m.result['2xx'], 0);
    const total = measured.reduce((n, m) => n + m.result.requests.total, 0);
    const p99 = Math.max(...measured.map((m) => m.result.latency.p99));
    return `${name.padEnd(40)} ${median(measured).toFixed(0).padStart(7)} req/s (rounds: ${measured.map((m) => rate(m).toFixed(0)).join(', ')})  ${cpuPerRequest(measured).toFixed(0).padStart(4)} µs server CPU a request  p99 ≤ ${p99} ms  ${ok}/${total} answered 200`;
  };
  const bare = median(runs.bare);
  print(
    `token exchanges: ${EXCHANGES} fresh codes in ${ROUNDS} interleaved rounds, ${CONNECTIONS} connections, persistence on (WAL, synchronous=NORMAL), traffic capture ${process.argv.includes('--capture') ? 'on' : 'off'}; median of the rounds`,
  );
  print(line('bare fastify route (fixed answer)', runs.bare));
  print(line('floor: minimal persisted exchange', runs.floor));
  print(line('token endpoint, authorization_code', runs.exchange));
  print(line('token endpoint, refresh_token (rotation)', runs.refresh));
  // The floor's ratio is the most any persisted exchange reaches here: an aim above it is out of
  // reach of any token endpoint that keeps its tokens, however lean (perf-token-exchange.md).
  const floor = median(runs.floor) / bare;
  printAim(
    'token exchange (authorization_code, persisted) vs bare fastify',
    median(runs.exchange) / bare,
    '×',
    { atLeast: 0.3 },
    `the floor (a minimal persisted exchange) ${floor.toFixed(2)}×`,
  );
  print(`ratio refresh_token / bare:      ${(median(runs.refresh) / bare).toFixed(2)}×`);
  // The same ratio read from the server's CPU a request: what each would serve with a core of its
  // own. The bare route is often bound by the one-process client, the exchange never is.
  print(
    `by server CPU a request:         authorization_code ${(cpuPerRequest(runs.bare) / cpuPerRequest(runs.exchange)).toFixed(2)}×, refresh_token ${(cpuPerRequest(runs.bare) / cpuPerRequest(runs.refresh)).toFixed(2)}×, floor ${(cpuPerRequest(runs.bare) / cpuPerRequest(runs.floor)).toFixed(2)}×`,
  );
}
