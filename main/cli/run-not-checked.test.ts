/**
 * A run whose every expectation went unchecked failed nothing, but it would have ended so
 * whatever the console did: an outsider's file with a wrong expectation and a `requestsBefore`
 * that any count of requests meets ran to PASSED, exit 0, as did a bundle exported at clock speed
 * 200 with both its expectations changed. Such a run is NOT CHECKED (exit 2), in the terminal, the
 * JSON report (its expectations skipped, not passed) and the JUnit report (a case in error).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScenarioReport, ScenarioStep } from '../engine/api/scenario-types.js';
import { tempDirs } from '../engine/testing/temp-dirs.js';
import { runCli } from '../testing/cli.js';

const tempDir = tempDirs('cqc-run-not-checked-');

const KITCHEN = 'player-kitchen';

/** Loads a queue of its own on Kitchen, skips (with `drift` on the skip), and expects two wrong things of Kitchen. */
function scenario(drift: boolean, extra: ScenarioStep[] = []) {
  const items = Array.from({ length: 12 }, (_, i) => ({
    track: {
      name: `T${i}`,
      mediaUrl: `https://example.com/${i}.mp3`,
      contentType: 'audio/mpeg',
      durationMillis: 60_000,
    },
  }));
  return {
    name: 'vacuous',
    steps: [
      { type: 'clock', speed: 0 },
      { type: 'queueEdit', command: 'queues.create', input: { name: 'own q', items }, saveQueue: 'own' },
      {
        type: 'command',
        method: 'POST',
        path: '/api/v1/groups/group-kitchen/playbackSession:1',
        body: { appId: 'com.hand', appContext: 'x' },
        save: { s: 'sessionId' },
        expectStatus: 200,
      },
      {
        type: 'command',
        method: 'POST',
        path: '/api/v1/playbackSessions/${s}/playbackSession:1/loadCloudQueue',
        body: { queueBaseUrl: '${own.queueBaseUrl}', httpAuthorization: '${own.httpAuthorization}' },
        expectStatus: 200,
      },
      { type: 'clock', advanceMs: 5_000 },
      {
        type: 'action',
        playerId: KITCHEN,
        action: 'skipNext',
        // Any count from 1 to 1,000 reads as timers that fell elsewhere: Kitchen is not held to anything after.
        ...(drift ? { requestsBefore: { [KITCHEN]: 0 }, requestsBy: { [KITCHEN]: 1_000 } } : {}),
      },
      { type: 'clock', advanceMs: 5_000 },
      // Both wrong: Kitchen plays, and skipped.
      { type: 'expect', playerId: KITCHEN, state: 'PAUSED' },
      { type: 'expect', playerId: KITCHEN, transitions: ['load-begins', 'load-failed'] },
      ...extra,
    ],
  };
}

async function run(name: string, file: unknown) {
  const dir = tempDir();
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(file));
  const json = join(dir, `${name}.report.json`);
  const junit = join(dir, `${name}.xml`);
  const outcome = await runCli('run', path, '--json', json, '--junit', junit);
  return {
    ...outcome,
    report: JSON.parse(readFileSync(json, 'utf8')) as ScenarioReport,
    junit: readFileSync(junit, 'utf8'),
  };
}

describe('a run that could check none of its expectations', () => {
  it('is NOT CHECKED, exit 2, in the terminal and both reports: never a pass', async () => {
    const { code, stdout, report, junit } = await run('drift', scenario(true));
    expect(stdout).toMatch(/^NOT CHECKED · .* · expectations: 0 of 2 met, 2 not checked · /m);
    expect(stdout).toMatch(/all 2 of its expectations went unchecked, so the run would have ended so whatever/);
    expect(stdout).toMatch(/export the span again with the clock stopped/);
    expect(code).toBe(2);
    expect(report.passed).toBe(false);
    expect(report.notChecked).toMatch(/^all 2 of its expectations went unchecked/);
    // Skipped, as JUnit and the terminal say: a reader counting "passed" counts none.
    const expectations = report.steps.filter((step) => step.type === 'expect');
    expect(expectations.map((step) => [step.status, step.unchecked])).toEqual([
      ['skipped', true],
      ['skipped', true],
    ]);
    expect(junit).toMatch(/<testcase [^>]*name="the run checked something"[^>]*>\s*<error [^>]*type="NothingChecked"/);
    expect(junit.match(/<skipped/g)).toHaveLength(2);
  });

  it('without the drift, the same expectations fail: they were wrong all along', async () => {
    const { code, stdout, report } = await run('held', scenario(false));
    expect(code).toBe(1);
    expect(stdout).toMatch(/^FAILED · /m);
    expect(report.notChecked).toBeUndefined();
  });

  it('one expectation held is a verdict: it passes on what was checked, and counts the rest apart', async () => {
    // Office did not drift: held to being idle, which it is.
    const office: ScenarioStep = { type: 'expect', playerId: 'player-office', state: 'IDLE' };
    const { code, stdout, report, junit } = await run('partial', scenario(true, [office]));
    expect(stdout).toMatch(/^PASSED · .* · expectations: 1 of 3 met, 2 not checked · /m);
    expect(code).toBe(0);
    expect(report).toMatchObject({ passed: true });
    expect(report.notChecked).toBeUndefined();
    expect(junit).not.toMatch(/NothingChecked/);
  });
});
