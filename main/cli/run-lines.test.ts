/**
 * `run`'s step lines: a step still waiting for engine time says so, and is never printed as a
 * pass before its settled line says how it ended.
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioReport, ScenarioStepResult } from '../engine/api/scenario-types.js';
import { stepLine, summaryLine } from './run.js';

const skip = { type: 'action', playerId: 'player-office', action: 'skipNext' } as const;

describe('run step lines', () => {
  it('marks a waiting step "wait", then its settled outcome', () => {
    const waiting: ScenarioStepResult = {
      index: 5,
      type: 'action',
      status: 'passed',
      message: 'waiting for engine time',
      waiting: true,
    };
    expect(stepLine(waiting, 1_000, 9, skip, false)).toMatch(
      /^\[\+00:00:01\.000\] wait {2}6\/9 action skipNext at player-office — waiting for engine time\n$/,
    );
    const failed: ScenarioStepResult = {
      index: 5,
      type: 'action',
      status: 'failed',
      message: 'skipNext at player-office failed: 503',
    };
    expect(stepLine(failed, 11_000, 9, skip, true)).toMatch(
      / FAIL {2}6\/9 action skipNext at player-office \(settled\) — skipNext at player-office failed: 503\n$/,
    );
  });

  it("says a passed file with no expectation as checking its calls' answers, not as 0 of 0 met (outsider)", () => {
    const report: ScenarioReport = {
      scenarioId: 's',
      name: 'filtered',
      passed: true,
      startedAt: 0,
      endedAt: 1_000,
      wallMs: 10,
      steps: [{ index: 0, type: 'action', status: 'passed', message: 'skipNext at player-office' }],
      transitions: [],
      restored: { clockSpeed: 1, faultsRemoved: 0, faultsPutBack: 0 },
    };
    const line = summaryLine(report, [skip]);
    expect(line).toMatch(
      /^PASSED · 1 passed, 0 failed, 0 skipped · no expectation: only the calls' answers were checked, not what the players did · /,
    );
    expect(line).not.toMatch(/0 of 0/);
  });
});
