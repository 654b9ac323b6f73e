/**
 * A run as JUnit XML, which every CI report viewer reads: one test case per case of the suite,
 * named by its id and title, its class the rule it checks. A failure carries its message and, as
 * its output, the evidence (the curl that repeats it, the exchanges); a warning passes with the
 * same output and an `outcome` property; a skip says why in its `message`. A server that could not
 * be reached is one failed test case that says so. Written with junit-report-builder, as `run`
 * writes its own; every text from the run goes through `xmlSafe` first, and output is written as
 * escaped text, not CDATA, so that whatever a server sends the document stays XML 1.0.
 */
import junit from 'junit-report-builder';
import type { ConformanceRun } from '../../api/conformance-types.js';
import { evidenceText } from './evidence-text.js';
import { xmlSafe } from './text.js';

type TestCase = ReturnType<ReturnType<ReturnType<typeof junit.newBuilder>['testSuite']>['testCase']>;

export function runJUnit(run: ConformanceRun): string {
  const builder = junit.newBuilder();
  const suite = builder
    .testSuite()
    .name(xmlSafe(`conformance of ${run.baseUrl}`))
    .timestamp(new Date(run.startedAt))
    .time(((run.finishedAt ?? run.startedAt) - run.startedAt) / 1000)
    .property('runId', xmlSafe(run.id))
    .property('baseUrl', xmlSafe(run.baseUrl))
    .property('status', run.status);
  if (run.error) {
    suite
      .testCase()
      .className('conformance')
      .name(run.error.kind === 'unreachable' ? 'the server can be reached' : 'the run completes')
      .failure(xmlSafe(run.error.message), run.error.kind);
  }
  for (const result of run.cases) {
    const testCase = suite
      .testCase()
      .className(xmlSafe(result.rule))
      .name(xmlSafe(`${result.id}: ${result.title}`))
      .time(result.durationMs / 1000)
      .property('outcome', result.outcome)
      .property('trafficIds', result.trafficIds.join(','));
    const message = xmlSafe(result.message);
    const evidence = xmlSafe(evidenceText(result));
    if (result.outcome === 'fail') {
      testCase.failure(message, 'ConformanceFailure');
      withOutput(testCase, evidence || message);
    } else if (result.outcome === 'skip') {
      testCase.skipped();
      withOutput(testCase, message, message);
    } else {
      withOutput(
        testCase,
        [result.outcome === 'warn' ? `warning: ${message}` : message, evidence].filter(Boolean).join('\n\n'),
      );
    }
  }
  return builder.build();
}

/**
 * The test case's `<system-out>` as escaped text, and its `<skipped>`'s `message`: the builder
 * writes output as CDATA, splitting only the first `]]>` in it (a second one ends the section and
 * breaks the document), and writes a bare `<skipped/>`. Both are set on its element once built.
 */
function withOutput(testCase: TestCase, output: string, skippedMessage?: string): void {
  const build = testCase.build.bind(testCase);
  testCase.build = (parent) => {
    const element = build(parent);
    if (skippedMessage !== undefined) {
      for (const child of element.children)
        if (isElement(child) && child.name === 'skipped') child.att('message', skippedMessage);
    }
    element.ele('system-out').txt(output);
    return element;
  };
}

type Element = ReturnType<TestCase['build']>;

function isElement(node: unknown): node is Element {
  return typeof node === 'object' && node !== null && 'att' in node && 'name' in node;
}
