/**
 * examples/fleet/fleet.yml run by Artillery's own CLI (`npx artillery run`, a child process) with
 * the console's engine (packages/artillery-engine-cloud-queue), on loopback: against the
 * console's reference server its players' figures are in Artillery's JSON report as custom
 * metrics with 0 violations, and against a server whose windows hold one item more than asked the
 * violation is counted by rule, and not as an error. It needs `npm run build` (CI builds before the tests): the engine
 * is built from the player core into out/.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDefectiveServer, type DefectiveServer } from '../main/engine/conformance/testing/defective-server.js';
import { PROJECT_ROOT, startServe, type ServeProcess } from '../main/testing/serve-process.js';

const EXAMPLE = join(PROJECT_ROOT, 'examples/fleet/fleet.yml');
const BUILT_ENGINE = join(PROJECT_ROOT, 'out/artillery-engine/engine.cjs');
/** Artillery's own start (it loads its cloud SDKs) is slow on a busy 2-core machine; the play is 20 s. */
const RUN_TIMEOUT_MS = 150_000;

interface ArtilleryReport {
  aggregate: {
    counters: Record<string, number>;
    summaries: Record<string, { count: number; p99: number }>;
  };
}

let dir: string;
let console_: ServeProcess | undefined;
let defective: DefectiveServer | undefined;

beforeAll(() => {
  // Not a skip: without the build there is no engine to test, and CI builds first.
  if (!existsSync(BUILT_ENGINE))
    throw new Error(`${BUILT_ENGINE} is missing: run \`npm run build\` before this test (it builds the engine)`);
  dir = mkdtempSync(join(tmpdir(), 'cqc-artillery-'));
});

afterAll(async () => {
  await console_?.stop();
  await defective?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `npx artillery run FILE --output report.json`, bounded; answers its report and output. */
async function artilleryRun(
  name: string,
  env: Record<string, string>,
  extra: string[] = [],
): Promise<{ code: number | null; output: string; report: ArtilleryReport }> {
  const output = join(dir, `${name}.json`);
  // npm's own settings from a surrounding `npm test` must not reach the child's npx.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_config_')),
  );
  const child = spawn('npx', ['--no-install', 'artillery', 'run', EXAMPLE, '--output', output, ...extra], {
    cwd: PROJECT_ROOT,
    env: { ...inherited, ...env, ARTILLERY_DISABLE_TELEMETRY: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS - 5_000);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  if (!existsSync(output)) throw new Error(`artillery wrote no report (exit ${code}):\n${text}`);
  return { code, output: text, report: JSON.parse(readFileSync(output, 'utf8')) as ArtilleryReport };
}

async function referenceQueue(): Promise<{ queueBaseUrl: string; httpAuthorization: string }> {
  console_ = await startServe(['--port', '0', '--ephemeral']);
  const response = await fetch(`${console_.ready.urls.console}/admin/api/queues`, {
    method: 'POST',
    headers: { authorization: `Bearer ${console_.ready.adminToken}`, 'content-type': 'application/json' },
    body: readFileSync(join(PROJECT_ROOT, 'examples/fleet/queue.json'), 'utf8'),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { queueBaseUrl: string; httpAuthorization: string };
}

// The two plays side by side: each is 20 s of wall time that barely uses a core, and one after the
// other they held a test worker for 90 s.
describe.concurrent('examples/fleet/fleet.yml under `artillery run`', () => {
  it(
    "reports the players' figures as custom metrics, 0 violations on the reference server",
    async () => {
      const queue = await referenceQueue();
      const { code, output, report } = await artilleryRun('reference', {
        QUEUE_BASE_URL: queue.queueBaseUrl,
        QUEUE_AUTHORIZATION: queue.httpAuthorization,
      });
      const { counters, summaries } = report.aggregate;
      expect(code, output).toBe(0);
      expect(output).toContain('ok: cloud_queue.violations == 0');
      expect(output).toContain('ok: cloud_queue.errors == 0');
      expect(output).not.toContain('could not be loaded');
      expect(counters['vusers.completed']).toBe(4);
      expect(counters['vusers.failed']).toBe(0);
      // Every player loaded its queue: a context, a load window, then reports as it played.
      expect(counters['cloud_queue.requests.context']).toBeGreaterThanOrEqual(4);
      expect(counters['cloud_queue.requests.itemWindow.load']).toBeGreaterThanOrEqual(4);
      expect(counters['cloud_queue.requests.timePlayed']).toBeGreaterThan(4);
      expect(counters['cloud_queue.codes.itemWindow.200']).toBe(counters['cloud_queue.requests.itemWindow']);
      expect(counters['cloud_queue.transport_errors'] ?? 0).toBe(0);
      expect(counters['cloud_queue.violations']).toBe(0);
      expect(Object.keys(counters).filter((name) => name.startsWith('cloud_queue.violations.'))).toEqual([]);
      // Each VU ended playing, and said so.
      expect(counters['cloud_queue.players.PLAYING']).toBe(4);
      expect(summaries['cloud_queue.latency.itemWindow']?.count).toBe(counters['cloud_queue.requests.itemWindow']);
      expect(summaries['cloud_queue.latency']?.count).toBe(counters['cloud_queue.requests']);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'counts the violation by rule against a server whose windows hold one item more than asked',
    async () => {
      defective = await startDefectiveServer({ defects: ['moreThanAsked'] });
      const { code, output, report } = await artilleryRun('more-than-asked', {
        QUEUE_BASE_URL: defective.baseUrl,
        QUEUE_AUTHORIZATION: defective.authorization,
      });
      const { counters } = report.aggregate;
      // The script's ensure condition fails the run, as a threshold does the console's own fleet.
      expect(code, output).toBe(1);
      expect(output).toContain('fail: cloud_queue.violations == 0');
      // A window one item too long is used, and warned of: a violation, not an error.
      expect(output).toContain('ok: cloud_queue.errors == 0');
      // Each player's load window broke it.
      expect(counters['cloud_queue.violations.itemWindow.window-size']).toBeGreaterThanOrEqual(4);
      expect(counters['cloud_queue.violations']).toBe(counters['cloud_queue.violations.itemWindow.window-size']);
    },
    RUN_TIMEOUT_MS,
  );
});
