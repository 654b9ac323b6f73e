/**
 * The traffic log's writer thread (data dir): the engine reads what the thread wrote, clear and
 * retention go through it in order, the log survives a restart, and when the thread cannot run
 * the engine's own connection writes instead.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TrafficEntry } from '../api/traffic-types.js';
import type { Logger } from '../log.js';
import { openStore } from '../store/store.js';
import { insertOps } from '../store/repositories/traffic.js';
import { admin, startTestEngine } from '../testing/http.js';
import { trafficEntry } from '../testing/traffic.js';
import { engineWriter, threadWriter } from './writer.js';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cqc-traffic-writer-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function recordingLog(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info: () => undefined, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) };
}

const list = async (engine: Awaited<ReturnType<typeof startTestEngine>>, query = '') => (await admin(engine, 'GET', `/traffic${query}`)).body as TrafficEntry[];

describe('with a data dir', () => {
  it('a thread writes the log; the engine reads it, clears it, trims it, and finds it after a restart', async () => {
    const dataDir = freshDir();
    const log = recordingLog();
    let engine = await startTestEngine({ dataDir, log });
    try {
      for (let i = 0; i < 5; i++) await fetch(`${engine.urls.cloudQueue}/queues/q${i}/v2.3/version`);
      expect((await list(engine, '?target=cloudQueue')).map((e) => e.path)).toEqual([0, 1, 2, 3, 4].map((i) => `/queues/q${i}/v2.3/version`));
      await admin(engine, 'DELETE', '/traffic');
      expect(await list(engine, '?target=cloudQueue')).toEqual([]);
      await admin(engine, 'PATCH', '/traffic/settings', { retention: 100 });
      for (let i = 0; i < 120; i++) await fetch(`${engine.urls.cloudQueue}/queues/r${i}/v2.3/version`);
      const kept = await list(engine, '?limit=1000');
      expect(kept).toHaveLength(100);
      expect(kept.at(-1)!.path).toBe('/queues/r119/v2.3/version');
    } finally {
      await engine.close();
    }
    engine = await startTestEngine({ dataDir, log });
    try {
      expect((await list(engine, '?target=cloudQueue&limit=1000')).at(-1)!.path).toBe('/queues/r119/v2.3/version');
    } finally {
      await engine.close();
    }
    expect(log.warnings).toEqual([]);
  });
});

describe('a writer thread that cannot run', () => {
  it('leaves the writing to the engine\u2019s own connection, losing nothing', async () => {
    const store = openStore({ dataDir: null });
    const log = recordingLog();
    const writer = threadWriter({ file: join(freshDir(), 'missing', 'console.sqlite'), fallback: engineWriter(store.traffic), log });
    const entry = trafficEntry({ status: 404 });
    const results = await writer.run(insertOps([entry, entry]));
    expect(results.map(([, changes]) => changes)).toEqual([1, 1]);
    expect(store.traffic.page({}, 0, 10).total).toBe(2);
    expect(log.warnings).toEqual([expect.stringMatching(/traffic writer thread stopped/)]);
    await writer.close();
    store.close();
  });
});
