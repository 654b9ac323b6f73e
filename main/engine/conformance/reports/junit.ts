/**
 * A run as JUnit XML, which every CI report viewer reads: one test case per case of the suite,
 * named by its id and title, its class the rule it checks. A warning passes, with the warning as
 * its output and an `outcome` property; a skip says why. A server that could not be reached is
 * one failed test case that says so. Written with junit-report-builder, as `run` writes its own.
 */
import junit from 'junit-report-builder';
import type { ConformanceRun } from '../../api/conformance-types.js';

export function runJUnit(run: ConformanceRun): string {
  const builder = junit.newBuilder();
  const suite = builder
    .testSuite()
    .name(`conformance of ${run.baseUrl}`)
    .timestamp(new Date(run.startedAt))
    .time(((run.finishedAt ?? run.startedAt) - run.startedAt) / 1000)
    .property('runId', run.id)
    .property('baseUrl', run.baseUrl)
    .property('status', run.status);
  if (run.error) {
    suite.testCase().className('conformance').name(run.error.kind === 'unreachable' ? 'the server can be reached' : 'the run completes').failure(run.error.message, run.error.kind);
  }
  for (const result of run.cases) {
    const testCase = suite
      .testCase()
      .className(result.rule)
      .name(`${result.id}: ${result.title}`)
      .time(result.durationMs / 1000)
      .property('outcome', result.outcome)
      .property('trafficIds', result.trafficIds.join(','));
    if (result.outcome === 'fail') testCase.failure(result.message, 'ConformanceFailure');
    else if (result.outcome === 'skip') testCase.skipped().standardOutput(result.message);
    else testCase.standardOutput(result.outcome === 'warn' ? `warning: ${result.message}` : result.message);
  }
  return builder.build();
}
