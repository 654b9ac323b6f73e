/**
 * Each case proven against a server wrong in exactly its one way (docs/contract/console.md §8):
 * the defect fails that case and no other, and the failing case says what it expected, what came
 * back, and which traffic log entries show it. What the platform lets a server do (answer a
 * report with 200, be slow) is never a failure; a server that is not there fails the run with
 * one message; fault rules with target `player` apply to the suite's requests as to a player's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TrafficEntry } from '../api/traffic-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { caseInfos } from './suite.js';
import { checkServer, outcomes } from './testing/check.js';
import { DEFECTS, startDefectiveServer, type Defect, type DefectiveServer, type DefectiveServerOptions } from './testing/defective-server.js';

let engine: Engine;
let server: DefectiveServer | null = null;
beforeAll(async () => {
  // The engine clock stopped: a run keeps real time of its own (runs.ts).
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());
afterEach(async () => {
  await server?.close();
  server = null;
});

async function check(options: DefectiveServerOptions, authorization?: string | null) {
  server = await startDefectiveServer(options);
  return checkServer(engine, server.baseUrl, authorization === null ? undefined : (authorization ?? server.authorization));
}

const failed = (run: { cases: { id: string; outcome: string }[] }) => run.cases.filter((c) => c.outcome === 'fail').map((c) => c.id);

describe('the suite against a server right in every way', () => {
  it('passes every case, each with its evidence in the traffic log as the player\'s traffic', async () => {
    const { run, progress } = await check({});
    expect(run.status).toBe('passed');
    expect(outcomes(run)).toEqual(Object.fromEntries(caseInfos().map(({ id }) => [id, 'pass'])));
    expect(run.summary).toEqual({ total: caseInfos().length, pass: caseInfos().length, fail: 0, warn: 0, skip: 0 });
    // One event per settled case, in suite order, then the end.
    expect(progress.map((event) => event.settled?.id ?? 'end')).toEqual([...caseInfos().map(({ id }) => id), 'end']);
    expect(progress.at(-1)).toMatchObject({ status: 'passed', error: null });

    const unknown = run.cases.find((c) => c.id === 'item-window.unknown-item')!;
    expect(unknown.trafficIds).toHaveLength(1);
    const entry = (await admin(engine, 'GET', `/traffic/${unknown.trafficIds[0]}`)).body as TrafficEntry;
    expect(entry).toMatchObject({ target: 'player', playerId: 'conformance-check', status: 404, path: '/q/itemWindow' });
    expect(entry.url).toContain('itemId=cqc-check-no-such-item-');
    for (const result of run.cases.filter((c) => c.id !== 'timing')) expect(result.trafficIds.length, result.id).toBeGreaterThan(0);
  });
});

describe('a server wrong in one way fails that one case', () => {
  it.each(Object.entries(DEFECTS) as [Defect, string][])('%s: %s fails, no other case does', async (defect, caseId) => {
    const { run } = await check({ defects: [defect] });
    expect(failed(run)).toEqual([caseId]);
    expect(run.status).toBe('failed');
    const result = run.cases.find((c) => c.id === caseId)!;
    expect(result.trafficIds.length).toBeGreaterThan(0);
    expect(result.message).toMatch(/expected|must|more than|twice|does not hold|but/);
  });

  it('names what it expected and what came back: an unknown itemId answered with the first items', async () => {
    const { run } = await check({ defects: ['unknownItemFromStart'] });
    expect(run.cases.find((c) => c.id === 'item-window.unknown-item')!.message).toMatch(
      /^GET \/itemWindow\?reason=skipToItem&.*itemId=cqc-check-no-such-item-\w+: expected 404 \(.*\), got 200 with a window of 11 items \(item-1 … item-11\)$/,
    );
  });

  it('names the later window that claims the beginning of the queue', async () => {
    const { run } = await check({ defects: ['beginningAlwaysTrue'] });
    expect(run.cases.find((c) => c.id === 'item-window.queue-ends')!.message).toMatch(/includesBeginningOfQueue true, but the window starts at item 30 \(item-30\), not at the queue's first item item-1/);
  });

  it('skips, saying why, what builds on a case that failed', async () => {
    const { run } = await check({ defects: ['tracksWithoutMediaUrl'] });
    expect(run.cases.find((c) => c.id === 'time-played.update')).toMatchObject({ outcome: 'skip', message: expect.stringMatching(/no item .* track\.mediaUrl to report on/) });
  });

  it('skips the wrong-token case when the run was given no Authorization, and every case after a first window refused', async () => {
    const { run } = await check({}, null);
    expect(run.cases.find((c) => c.id === 'item-window.first')).toMatchObject({ outcome: 'fail', message: expect.stringMatching(/got 401 \(invalid token\); check the Authorization given/) });
    expect(run.cases.find((c) => c.id === 'item-window.size-limits')).toMatchObject({ outcome: 'skip', message: 'skipped: it builds on item-window.first, and item-window.first failed' });
  });
});

describe('what the platform lets a server do', () => {
  it('a 200 to reports with an empty body or a context passes; with other JSON it warns, and the run still passes', async () => {
    expect(outcomes((await check({ reportAnswer: '' })).run)['time-played.final']).toBe('pass');
    await server!.close();
    expect(outcomes((await check({ reportAnswer: '{"reports":{"sendUpdateAfterMillis":30000}}' })).run)['time-played.update']).toBe('pass');
    await server!.close();
    const { run } = await check({ reportAnswer: '{"ok":true}' });
    expect(run.cases.find((c) => c.id === 'time-played.update')).toMatchObject({ outcome: 'warn', message: expect.stringMatching(/200 with \{"ok":true\}, neither empty nor a context/) });
    expect(run.status).toBe('passed');
  });

  it('an answer slower than 1 s is a warning naming it, not a failure', async () => {
    const { run } = await check({ versionDelayMs: 1_100 });
    expect(failed(run)).toEqual([]);
    expect(run.cases.find((c) => c.id === 'timing')).toMatchObject({ outcome: 'warn', message: expect.stringMatching(/^1 of \d+ answers took more than 1 s: GET \/version took 1\.\d s$/) });
    expect(run.cases.find((c) => c.id === 'timing')!.trafficIds).toHaveLength(1);
    expect(run.status).toBe('passed');
  }, 20_000);
});

describe('a server that cannot be reached', () => {
  it('fails the run with that one message and no case', async () => {
    server = await startDefectiveServer();
    const { baseUrl } = server;
    await server.close();
    server = null;
    const { run, progress } = await checkServer(engine, baseUrl);
    expect(run).toMatchObject({ status: 'failed', cases: [], error: { kind: 'unreachable', message: expect.stringMatching(/^cannot reach the cloud queue server at http:\/\/127\.0\.0\.1:\d+\/q\/: connection failed: ECONNREFUSED$/) } });
    expect(progress).toEqual([expect.objectContaining({ settled: null, status: 'failed' })]);
  });
});

describe('fault rules with target player', () => {
  it('apply to the suite\'s requests, and the evidence shows the faulted entry', async () => {
    const rule = (await admin(engine, 'POST', '/faults', { target: 'player', match: { path: '/q/version' }, action: { type: 'status', status: 500 }, times: 1 })).body as { id: string };
    try {
      const { run } = await check({});
      expect(failed(run)).toEqual(['version']);
      const version = run.cases.find((c) => c.id === 'version')!;
      expect(version.message).toMatch(/^GET \/version: expected 200 with \{"queueVersion"\}, got 500 \(injected fault: 500\)$/);
      const entries = await Promise.all(version.trafficIds.map(async (id) => (await admin(engine, 'GET', `/traffic/${id}`)).body as TrafficEntry));
      expect(entries.find((entry) => entry.path === '/q/version')).toMatchObject({ status: 500, fault: { ruleId: rule.id } });
      // The faulted request never reached the server: only the wrong-token case's /version did.
      expect(server!.requests.filter((endpoint) => endpoint === 'version')).toHaveLength(1);
    } finally {
      await admin(engine, 'DELETE', `/faults/${rule.id}`);
    }
  });
});
