/**
 * A run's JUnit report: an expectation the run could not hold a player to (its timers fell
 * elsewhere than in the source) is a skipped test case, not a pass, so CI does not count it met.
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioReport, ScenarioStep } from '../engine/api/scenario-types.js';
import { scenarioJUnit } from './junit.js';

const steps: ScenarioStep[] = [
  { type: 'expect', playerId: 'player-kitchen', state: 'PLAYING' },
  { type: 'expect', playerId: 'player-office', state: 'PAUSED' },
];

const report: ScenarioReport = {
  scenarioId: 'scenario-1',
  name: 'Repro',
  passed: true,
  startedAt: 0,
  endedAt: 1_000,
  wallMs: 5,
  transitions: [],
  steps: [
    { index: 0, type: 'expect', status: 'passed', message: 'player-kitchen: not checked: drifted', unchecked: true },
    { index: 1, type: 'expect', status: 'passed', message: 'player-office: PAUSED' },
  ],
};

describe('a run’s JUnit report', () => {
  it('says an expectation not checked as a skipped test case, and one met as a pass', () => {
    const xml = scenarioJUnit(report, steps, 'bundle.json');
    const cases = xml.split('<testcase').slice(1);
    expect(cases).toHaveLength(2);
    expect(cases[0]).toMatch(/<skipped/);
    expect(cases[0]).toMatch(/not checked: drifted/);
    expect(cases[1]).not.toMatch(/<skipped|<failure/);
  });
});
