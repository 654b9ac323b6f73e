/**
 * A scenario run's verdict in a word, for every place that shows one (the CLI's `run`, the UI's
 * report and badge), and the rule that makes a run "not checked".
 *
 * A run whose expectations all went unchecked (a bundle exported while the clock ran, whose
 * players' timers fell elsewhere in the replay) has failed nothing, but it would have ended so
 * whatever the console did: a wrong expectation passes as well as a right one. Called a pass, it
 * teaches people to trust a run that checked nothing, so it is its own verdict, never a pass.
 */
import type { ScenarioReport, ScenarioStep, ScenarioStepResult } from './scenario-types.js';

export type ScenarioVerdict = 'passed' | 'failed' | 'not checked';

export function verdictOf(report: Pick<ScenarioReport, 'passed' | 'notChecked'>): ScenarioVerdict {
  if (report.notChecked !== undefined) return 'not checked';
  return report.passed ? 'passed' : 'failed';
}

/**
 * Why a run that failed nothing checked nothing, or undefined when it checked something: each of
 * its expectations unchecked, or (a file with none) no call's outcome judged (`judgedCalls`).
 */
export function nothingChecked(
  steps: readonly ScenarioStep[],
  results: readonly ScenarioStepResult[],
  judgedCalls: number,
): string | undefined {
  const expectations = results.filter((result) => steps[result.index]?.type === 'expect');
  const unchecked = expectations.filter((result) => result.unchecked);
  if (expectations.length > 0) {
    if (unchecked.length < expectations.length) return undefined;
    const many = expectations.length === 1 ? 'its expectation' : `all ${expectations.length} of its expectations`;
    return `${many} went unchecked, so the run would have ended so whatever the console did (${unchecked[0]!.message})`;
  }
  if (judgedCalls > 0) return undefined;
  return "no call's outcome was judged, so the run would have ended so whatever the console did";
}

/**
 * What to do about a run that checked nothing, by why it did: an expectation left unchecked is one
 * whose player's timers fell elsewhere than in the source (the only cause of `unchecked`); else
 * its calls were marked unjudged, or still waiting at the export.
 */
export function notCheckedAdvice(report: Pick<ScenarioReport, 'steps'>): string {
  return report.steps.some((step) => step.unchecked)
    ? "A bundle exported while the clock ran can leave its players' timers elsewhere in the replay: export the span again with the clock stopped (or slower), or add an expectation the run can hold (in a file of your own, a requestsBefore the run meets)"
    : 'Add an expectation the run can hold, or a call whose answer it judges (one the file marks as not checked, or still waiting at an export, is not)';
}
