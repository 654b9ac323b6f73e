// @vitest-environment happy-dom
/**
 * A run's report says an expectation it could not hold a player to (a bundle exported while the
 * clock ran, whose player's timers fell elsewhere) as not checked, drawn as a step not run: not
 * met. A run whose every expectation went so is NOT CHECKED, never a pass.
 */
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScenarioReport as Report } from '@engine-api/scenario-types';
import { ResultBadge, ScenarioReport } from './ScenarioReport';

afterEach(cleanup);

const report: Report = {
  scenarioId: 'scenario-1',
  name: 'Repro',
  passed: true,
  startedAt: 0,
  endedAt: 1_000,
  wallMs: 12,
  transitions: [],
  steps: [
    { index: 0, type: 'action', status: 'passed', message: 'pause at player-kitchen' },
    {
      index: 1,
      type: 'expect',
      status: 'skipped',
      message: 'player-kitchen: not checked: its timers fell elsewhere',
      unchecked: true,
    },
  ],
};

describe('a scenario report', () => {
  it('says an expectation it could not check as not checked, drawn as a step not run', () => {
    render(<ScenarioReport report={report} />);
    const [action, expectation] = within(screen.getByRole('list', { name: 'Steps' })).getAllByRole('listitem');
    expect(action!.getAttribute('data-status')).toBe('passed');
    expect(expectation!.getAttribute('data-status')).toBe('skipped');
    expect(within(expectation!).getByText('not checked')).toBeTruthy();
  });

  it('says a run that checked none of its expectations as NOT CHECKED, with why and what to do', () => {
    const why = 'its expectation went unchecked (player-kitchen: not checked: its timers fell elsewhere)';
    const nothing: Report = { ...report, passed: false, notChecked: why };
    render(<ScenarioReport report={nothing} />);
    const result = screen.getByTestId('scenario-result');
    expect(result.textContent).toBe('NOT CHECKED');
    expect(result.getAttribute('data-state')).toBe('not-checked');
    expect(screen.getByRole('status').textContent).toMatch(
      /^Not a pass: its expectation went unchecked .*\. A bundle exported while the clock ran .* export the span again with the clock stopped/,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    cleanup();
    // Unchecked for another reason (calls still waiting at the export): no word of the clock.
    const calls = { ...nothing, steps: report.steps.slice(0, 1), notChecked: "no call's outcome was judged" };
    render(<ScenarioReport report={calls} />);
    expect(screen.getByRole('status').textContent).toMatch(
      /^Not a pass: no call's outcome was judged\. Add an expectation/,
    );
    expect(screen.getByRole('status').textContent).not.toMatch(/clock/);
    cleanup();
    render(<ResultBadge report={nothing} />);
    expect(screen.getByText('not checked').getAttribute('data-tone')).toBe('warn');
  });
});
