/**
 * A scenario run as JUnit XML, the format every CI report viewer reads: one test case per
 * expectation (`expect` step), named by what it expects, so a red row says which expectation
 * failed. A step of another kind appears only when it failed (the expectations after it are then
 * skipped, and the report would otherwise not say why); a file with no expectation, one case for
 * its calls. A failed expectation's message carries its explanation (expected and actual side by
 * side, the exchanges around the first difference), as the terminal shows it. Written with
 * junit-report-builder.
 */
import junit from 'junit-report-builder';
import { CHECKING_STEP_TYPES } from '../engine/api/scenario-checks.js';
import type { ScenarioReport, ScenarioStep } from '../engine/api/scenario-types.js';
import { explanationLines } from './explanation.js';
import { describeStep, plain } from './steps.js';

/** Every text goes through `plain`: a name or a message can hold a server's or a file's control characters, which XML 1.0 cannot (the builder would throw). */
export function scenarioJUnit(report: ScenarioReport, steps: readonly ScenarioStep[], source: string): string {
  const builder = junit.newBuilder();
  const suite = builder
    .testSuite()
    .name(plain(report.name))
    .timestamp(new Date())
    .time(report.wallMs / 1000)
    .property('file', plain(source))
    .property('engineStartedAt', new Date(report.startedAt).toISOString())
    .property('engineEndedAt', new Date(report.endedAt).toISOString());
  for (const result of report.steps) {
    const step = steps[result.index];
    if (!step || (step.type !== 'expect' && result.status !== 'failed')) continue;
    const testCase = suite
      .testCase()
      .className(plain(report.name))
      .name(plain(`step ${result.index + 1}: ${describeStep(step)}`))
      .file(plain(source));
    const message = plain(result.message);
    if (result.status === 'failed') {
      const explained = result.explanation
        ? `\n${explanationLines(result.explanation, report.startedAt).join('\n')}`
        : '';
      testCase.failure(`${message}${explained}`, step.type === 'expect' ? 'ExpectationFailed' : 'StepFailed');
      // Not checked (its player's timers fell elsewhere than in the source): not a pass either.
    } else if (result.status === 'skipped' || result.unchecked) testCase.skipped().standardOutput(message);
    else testCase.standardOutput(message);
  }
  // A file with no expectation checks its calls' answers: one case says how many, or the report
  // reads `tests="0"`, which a CI viewer shows as nothing run.
  if (!steps.some((step) => step.type === 'expect') && report.notChecked === undefined && report.passed) {
    // Counted by what the run judged: a call the file marks as not checked passed whatever came back.
    const made = report.steps.filter((result) => CHECKING_STEP_TYPES.has(result.type));
    const calls = made.filter((result) => !result.notJudged).length;
    const unjudged = made.length - calls;
    suite
      .testCase()
      .className(plain(report.name))
      .name(`the answers of its ${calls} judged call${calls === 1 ? '' : 's'}`)
      .file(plain(source))
      .standardOutput(
        `${calls} call${calls === 1 ? '' : 's'} answered as the file says (it has no expect step)${unjudged ? `; ${unjudged} more made, whose answer${unjudged === 1 ? '' : 's'} the run does not judge (each step says why)` : ''}`,
      );
  }
  // A run that checked nothing is no pass: a case of its own says so, where skipped cases alone would read green.
  if (report.notChecked !== undefined)
    suite
      .testCase()
      .className(plain(report.name))
      .name('the run checked something')
      .file(plain(source))
      .error(plain(report.notChecked), 'NothingChecked');
  return builder.build();
}
