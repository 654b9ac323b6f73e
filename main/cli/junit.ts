/**
 * A scenario run as JUnit XML, the format every CI report viewer reads: one test case per
 * expectation (`expect` step), named by what it expects, so a red row says which expectation
 * failed. A step of another kind appears only when it failed (the expectations after it are then
 * skipped, and the report would otherwise not say why). Written with junit-report-builder.
 */
import junit from 'junit-report-builder';
import type { ScenarioReport, ScenarioStep } from '../engine/api/scenario-types.js';
import { describeStep } from './steps.js';

export function scenarioJUnit(report: ScenarioReport, steps: readonly ScenarioStep[], source: string): string {
  const builder = junit.newBuilder();
  const suite = builder
    .testSuite()
    .name(report.name)
    .timestamp(new Date())
    .time(report.wallMs / 1000)
    .property('file', source)
    .property('engineStartedAt', new Date(report.startedAt).toISOString())
    .property('engineEndedAt', new Date(report.endedAt).toISOString());
  for (const result of report.steps) {
    const step = steps[result.index];
    if (!step || (step.type !== 'expect' && result.status !== 'failed')) continue;
    const testCase = suite
      .testCase()
      .className(report.name)
      .name(`step ${result.index + 1}: ${describeStep(step)}`)
      .file(source);
    if (result.status === 'failed') testCase.failure(result.message, step.type === 'expect' ? 'ExpectationFailed' : 'StepFailed');
    else if (result.status === 'skipped') testCase.skipped().standardOutput(result.message);
    else testCase.standardOutput(result.message);
  }
  return builder.build();
}
