/**
 * A fleet as JUnit XML: one test case per threshold, failed when it does not hold, its message
 * the measured value; with no threshold, one case that says none was set. A fleet that could not
 * reach its server is one failed case. Written with junit-report-builder.
 */
import junit from 'junit-report-builder';
import type { FleetReport } from '../../api/fleet-types.js';
import { xmlSafe } from '../../conformance/reports/text.js';
import { unjudgedFail } from '../verdict.js';
import { headline } from './text.js';

/** XML 1.0 cannot carry most control characters: a server's words may hold them. */
const plain = xmlSafe;

export function fleetJUnit(report: FleetReport): string {
  const builder = junit.newBuilder();
  const suite = builder
    .testSuite()
    .name(`fleet ${report.id}`)
    .timestamp(new Date(report.startedAt))
    .time(report.elapsed.wallMs / 1000)
    .property('players', String(report.options.players))
    .property('engineMs', String(report.elapsed.engineMs))
    .property('summary', plain(headline(report)));
  if (report.error) {
    suite
      .testCase()
      .className('fleet')
      .name('the server can be reached')
      .failure(plain(report.error.message), report.error.kind);
  }
  for (const result of report.thresholds) {
    const testCase = suite.testCase().className('fleet.thresholds').name(plain(result.expression));
    const measured = `measured ${result.actual}${result.unit}`;
    // Not judged and no failure (verdict.ts): skipped; else failed, for a CI that reads only failures (review).
    if (result.notJudged && !unjudgedFail(report)) testCase.skipped().standardOutput(plain(result.notJudged));
    else if (result.notJudged) testCase.failure(plain(result.notJudged), 'NotJudged');
    else if (result.ok) testCase.standardOutput(measured);
    else testCase.failure(`${result.expression} does not hold: ${measured}`, 'ThresholdFailed');
  }
  if (report.thresholds.length === 0 && !report.error)
    suite
      .testCase()
      .className('fleet.thresholds')
      .name('no threshold set')
      .standardOutput(plain(headline(report)));
  return builder.build();
}
