/**
 * A run of some cases only (what `check --replay` starts): the cases asked for and those they
 * build on, in suite order, its summary counting them alone; an id the suite does not have is
 * refused before anything runs.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { selectCases } from './selection.js';
import { checkServer } from './testing/check.js';
import { SUITE } from './suite.js';
import { startDefectiveServer, type DefectiveServer } from './testing/defective-server.js';

let engine: Engine;
let server: DefectiveServer | null = null;
beforeAll(async () => {
  engine = await startTestEngine({ clockSpeed: 0 });
});
afterAll(() => engine.close());
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('a run of some cases only', () => {
  it('holds the cases asked for and those they build on, in suite order', () => {
    const ids = selectCases(SUITE, ['auth.wrong-token', 'item-window.centred']).map((unit) => unit.id);
    expect(ids).toEqual(
      SUITE.map((unit) => unit.id).filter((id) =>
        ['item-window.first', 'item-window.centred', 'auth.wrong-token'].includes(id),
      ),
    );
    expect(selectCases(SUITE, undefined)).toBe(SUITE);
  });

  it('holds every case before one that judges every answer, and the cases whose windows one compares (audit)', () => {
    const ids = SUITE.map((unit) => unit.id);
    expect(selectCases(SUITE, ['timing']).map((unit) => unit.id)).toEqual(ids.slice(0, ids.indexOf('timing') + 1));
    expect(selectCases(SUITE, ['errors.retry-after']).map((unit) => unit.id)).toEqual(
      ids.slice(0, ids.indexOf('errors.retry-after') + 1),
    );
    const identity = selectCases(SUITE, ['item-window.stable-identity']).map((unit) => unit.id);
    for (const id of ['item-window.queue-ends', 'item-window.reasons', 'play-through']) expect(identity).toContain(id);
    expect(selectCases(SUITE, ['item-window.ids']).map((unit) => unit.id)).toContain('item-window.queue-ends');
  });

  it('runs them alone against a server, and refuses a case the suite does not have', async () => {
    server = await startDefectiveServer({ defects: ['acceptsNegativeSize'] });
    let ended!: () => void;
    const end = new Promise<void>((resolve) => (ended = resolve));
    let id: string | null = null;
    const stop = engine.events.on('conformance.progress', (progress) => {
      if (progress.runId === id && progress.settled === null) ended();
    });
    ({ id } = await engine.commands.run('conformance.runs.start', {
      baseUrl: server.baseUrl,
      authorization: server.authorization,
      cases: ['item-window.negative-size'],
    }));
    if ((await engine.commands.run('conformance.runs.get', { id })).status === 'running') await end;
    stop();
    const run = await engine.commands.run('conformance.runs.get', { id });
    const wanted = SUITE.map((unit) => unit.id).filter((id) =>
      selectCases(SUITE, ['item-window.negative-size']).some((unit) => unit.id === id),
    );
    expect(run.cases.map((c) => c.id)).toEqual(wanted);
    expect(run.summary.total).toBe(wanted.length);
    expect(run.cases.find((c) => c.id === 'item-window.negative-size')!.outcome).toBe('fail');

    const refused = await admin(engine, 'POST', '/conformance/runs', {
      baseUrl: server.baseUrl,
      cases: ['no.such-case'],
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('no case \\"no.such-case\\" in the suite');
  });

  // What `check --replay` re-judges is the case as the run asked it: run alone (with what it builds
  // on and reads), each case sends the requests it sent in the whole run. non-integer-size alone
  // lost its itemId, and a server wrong only around an item was reported FIXED (audit).
  it('asks alone what it asked in the whole run, case by case', async () => {
    server = await startDefectiveServer();
    const asked = (case_: string) => {
      const urls = server!.urls.filter((_, i) => server!.cases[i] === case_);
      // Made-up ids are new in every run (a replay recalls the report's); the queue's own are not.
      return urls.map((url) => url.replace(/(cqc-check-[a-z-]+)-[0-9a-f]{8,}/g, '$1-…')).sort();
    };
    await checkServer(engine, server.baseUrl, server.authorization);
    const whole = new Map(SUITE.map((unit) => [unit.id, asked(unit.id)]));
    // Played on a clock of its own, and timed: what it asks depends on when, not on what ran before.
    const timed = new Set(['play-through', 'version.throughout', 'timing', 'errors.retry-after']);
    const differ: string[] = [];
    for (const unit of SUITE) {
      if (timed.has(unit.id) || whole.get(unit.id)!.length === 0) continue;
      server.urls.length = 0;
      server.cases.length = 0;
      server.requests.length = 0;
      const { id } = await engine.commands.run('conformance.runs.start', {
        baseUrl: server.baseUrl,
        authorization: server.authorization,
        cases: [unit.id],
      });
      await expect
        .poll(async () => (await engine.commands.run('conformance.runs.get', { id })).status, { timeout: 30_000 })
        .not.toBe('running');
      const alone = asked(unit.id);
      if (JSON.stringify(alone) !== JSON.stringify(whole.get(unit.id)))
        differ.push(`${unit.id}:\n  whole ${whole.get(unit.id)!.join(' ')}\n  alone ${alone.join(' ')}`);
    }
    expect(differ.join('\n')).toBe('');
  }, 300_000);

  it('names the case on the request that asks whether a queue is there, as on every other', async () => {
    // No /context: the first case's answers say nothing is there, and one more window is asked.
    server = await startDefectiveServer({ defects: ['noContext'] });
    await checkServer(engine, server.baseUrl, server.authorization);
    expect(server.requests.length).toBeGreaterThan(2);
    expect(server.cases.filter((id) => id === undefined)).toEqual([]);
  }, 60_000);
});
