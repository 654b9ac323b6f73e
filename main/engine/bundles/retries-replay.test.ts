/**
 * A bundle's replay checks the requests that failed and the retries, not only the transitions:
 * retries change no row of the transition table, so a bundle of a skip answered only after two
 * 503s and their retries passed with its 503 rule taken out, the skip then answered at once
 * (audit). Its expectation now lists those requests, and the replay must make them again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReproBundle } from '../api/bundle-types.js';
import type { ScenarioStep } from '../api/scenario-types.js';
import type { Engine } from '../index.js';
import { freshConsole, perform, PLAYER, playingOnKitchen, replay, type Bench } from './testing-actions.js';

describe('a bundle of a skip answered after its retries', () => {
  let source: Engine;
  let bundle: ReproBundle;

  beforeAll(async () => {
    source = await freshConsole();
    // limitedSkips: a skip asks the server, and waits for its answer.
    const bench: Bench = await playingOnKitchen(source, {
      durations: Array.from({ length: 8 }, () => 60_000),
      limitedSkips: true,
      notifyUserIntent: false,
    });
    await perform(bench, { kind: 'advance', ms: 4_000 });
    await perform(bench, {
      kind: 'rule',
      rule: {
        target: 'player',
        match: { path: '/itemWindow', reason: 'skipNext' },
        action: { type: 'status', status: 503, retryAfter: 2 },
        times: 2,
        label: 'two 503s',
      },
    });
    // The skip waits for its answer, which waits for the retries, on the engine clock.
    await perform(bench, { kind: 'button', action: 'skipNext' });
    await perform(bench, { kind: 'advance', ms: 10_000 });
    bundle = (await source.commands.run('bundles.export', { name: 'Skip after retries' })) as ReproBundle;
  });
  afterAll(() => source.close());

  const expectation = (b: ReproBundle) =>
    b.scenario.steps.find((s): s is ScenarioStep & { type: 'expect' } => s.type === 'expect' && s.playerId === PLAYER)!;

  it('lists the failed requests and the retry that was answered beside the transitions', () => {
    expect(expectation(bundle).requests).toEqual([
      'itemWindow skipNext → 503',
      'itemWindow skipNext → 503 (retry 1)',
      'itemWindow skipNext → 200 (retry 2)',
    ]);
  });

  it('replays to PASS as exported', async () => {
    const { report } = await replay(bundle);
    expect(report.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(report.passed).toBe(true);
  });

  it('passes on a console that records no traffic, saying its requests were not checked', async () => {
    // Capture off, no request is recorded: that is no sign the players did not make them again.
    const engine = await freshConsole();
    try {
      await engine.commands.run('traffic.configure', { capture: false });
      const { scenario } = await engine.commands.run('bundles.import', bundle);
      const report = await engine.commands.run('scenarios.run', { id: scenario.id });
      expect(report.passed).toBe(true);
      expect(report.steps.at(-1)!.message).toMatch(/; requests not checked: traffic capture is off/);
    } finally {
      await engine.close();
    }
  });

  it('fails with its 503 rule taken out: the same transitions, but no retries', async () => {
    const tampered = structuredClone(bundle);
    tampered.faults = [];
    tampered.scenario.steps = tampered.scenario.steps.filter((s) => s.type !== 'fault');
    const { report } = await replay(tampered);
    expect(report.passed).toBe(false);
    expect(report.steps.at(-1)).toMatchObject({
      type: 'expect',
      status: 'failed',
      message: expect.stringContaining('no itemWindow skipNext → 503 request (saw: none failed or was retried)'),
    });
  });
});
