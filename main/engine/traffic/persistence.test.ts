/** The traffic log with a data dir: cleared, trimmed, and found again after a restart. */
import { describe, expect, it } from 'vitest';
import type { TrafficEntry } from '../api/traffic-types.js';
import type { Logger } from '../log.js';
import { admin, startTestEngine } from '../testing/http.js';
import { codeFor, createTestIntegration, LOOPBACK_REDIRECT, tokenRequest } from '../testing/oauth.js';
import { tempDirs } from '../testing/temp-dirs.js';

const freshDir = tempDirs('cqc-traffic-log-');

function recordingLog(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    info: () => undefined,
    warn: (message) => warnings.push(message),
    error: (message) => warnings.push(message),
  };
}

const list = async (engine: Awaited<ReturnType<typeof startTestEngine>>, query = '') =>
  (await admin(engine, 'GET', `/traffic${query}`)).body as TrafficEntry[];

describe('with a data dir', () => {
  it('is read, cleared, trimmed, and found again after a restart', async () => {
    const dataDir = freshDir();
    const log = recordingLog();
    let engine = await startTestEngine({ dataDir, log });
    try {
      for (let i = 0; i < 5; i++) await fetch(`${engine.urls.cloudQueue}/queues/q${i}/v2.3/version`);
      expect((await list(engine, '?target=cloudQueue')).map((e) => e.path)).toEqual(
        [0, 1, 2, 3, 4].map((i) => `/queues/q${i}/v2.3/version`),
      );
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

describe('capture beside the engine\u2019s other writes', () => {
  // A second connection writing the log (a writer thread, once) committed between another
  // transaction's read and its write, which then failed with SQLITE_BUSY: token exchanges
  // answered 500 under load. Every exchange here runs while the log is being written.
  it('never fails a token exchange', async () => {
    const engine = await startTestEngine({ dataDir: freshDir() });
    try {
      const client = await createTestIntegration(engine);
      const codes: string[] = [];
      for (let i = 0; i < 200; i++) codes.push(await codeFor(engine, client, { state: `s${i}` }));
      const answers = await Promise.all(
        codes.map((code) =>
          tokenRequest(engine, client, { grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT }),
        ),
      );
      expect(answers.map((answer) => answer.status).filter((status) => status !== 200)).toEqual([]);
      expect((await list(engine, '?target=login&limit=1000')).length).toBeGreaterThanOrEqual(400);
    } finally {
      await engine.close();
    }
  });
});
