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
    { index: 0, type: 'expect', status: 'skipped', message: 'player-kitchen: not checked: drifted', unchecked: true },
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

  it('says a passed file of calls alone as one case counting them, not as tests="0"', () => {
    const callSteps: ScenarioStep[] = [
      { type: 'clock', advanceMs: 1_000 },
      { type: 'action', playerId: 'player-kitchen', action: 'pause' },
      { type: 'command', method: 'POST', path: '/api/v1/groups/group-kitchen/playback:1/play' },
    ];
    const calls: ScenarioReport = {
      ...report,
      steps: callSteps.map((step, index) => ({ index, type: step.type, status: 'passed', message: 'ok' })),
    };
    const xml = scenarioJUnit(calls, callSteps, 'calls.json');
    expect(xml).toMatch(/<testsuite [^>]*tests="1"/);
    expect(xml).toMatch(/<testcase [^>]*name="the answers of its 2 judged calls"/);
    expect(scenarioJUnit({ ...calls, passed: false }, callSteps, 'calls.json')).not.toMatch(/the answers of its/);
    // A call whose answer the run did not judge passed whatever came back: not counted as answered as the file says.
    const oneUnjudged: ScenarioReport = {
      ...calls,
      steps: calls.steps.map((step) => (step.index === 1 ? { ...step, notJudged: true } : step)),
    };
    const said = scenarioJUnit(oneUnjudged, callSteps, 'calls.json');
    expect(said).toMatch(/<testcase [^>]*name="the answers of its 1 judged call"/);
    expect(said).toMatch(
      /1 call answered as the file says \(it has no expect step\); 1 more made, whose answer the run does not judge/,
    );
  });

  it('adds a case in error when nothing the run expects was checked: skipped cases alone read green', () => {
    const nothing: ScenarioReport = {
      ...report,
      passed: false,
      notChecked: 'all 2 of its expectations went unchecked',
      steps: report.steps.map((step) => ({ ...step, status: 'skipped', unchecked: true })),
    };
    const cases = scenarioJUnit(nothing, steps, 'bundle.json').split('<testcase').slice(1);
    expect(cases).toHaveLength(3);
    expect(cases[2]).toMatch(
      /name="the run checked something"[^>]*>\s*<error message="all 2 of its expectations went unchecked" type="NothingChecked"/,
    );
    expect(scenarioJUnit(report, steps, 'bundle.json')).not.toMatch(/<error/);
  });
});
