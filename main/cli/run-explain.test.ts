/**
 * A failing `run` explains itself (docs/scenarios-and-bundles.md, "When a run fails"): under the
 * failed expectation, the expected and the actual transitions side by side from the first
 * difference, and the player's exchanges around it with method, path, reason, status and the
 * fault rule that acted on each; the same in the JSON report and the JUnit failure message, with
 * every control character from a server or a file replaced.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Window } from 'happy-dom';
import { parse, type TestSuites } from 'junit2json';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReproBundle } from '../engine/api/bundle-types.js';
import type { ExpectationExplanation } from '../engine/api/expectation-types.js';
import type { FaultRuleInput } from '../engine/api/fault-types.js';
import { startTestEngine } from '../engine/testing/http.js';
import { tempDirs } from '../engine/testing/temp-dirs.js';
import { exportStormBundle } from '../testing/storm-bundle.js';
import { main } from './index.js';
import type { CliIo } from './io.js';

const tempDir = tempDirs('cqc-explain-');

let bundle: ReproBundle;
beforeAll(async () => {
  const source = await startTestEngine();
  try {
    bundle = await exportStormBundle(source.urls.console, source.adminToken);
  } finally {
    await source.close();
  }
});

/** The storm bundle with its scenario's fault rule changed. */
function withRule(change: (rule: FaultRuleInput) => FaultRuleInput): ReproBundle {
  const changed = structuredClone(bundle);
  const step = changed.scenario.steps.find((s) => s.type === 'fault');
  if (step?.type !== 'fault') throw new Error('the exported scenario adds no fault rule');
  step.rule = change(step.rule);
  return changed;
}

/** Runs the bundle with both reports; answers what the CI job would see. */
async function run(name: string, value: ReproBundle) {
  const dir = tempDir();
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(value));
  let stdout = '';
  const io: CliIo = { stdout: (text) => (stdout += text), stderr: () => undefined };
  const code = await main(['run', file, '--junit', join(dir, 'report.xml'), '--json', join(dir, 'report.json')], io);
  const xml = readFileSync(join(dir, 'report.xml'), 'utf8');
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
    steps: { status: string; explanation?: ExpectationExplanation }[];
  };
  const suites = (await parse(xml)) as TestSuites;
  const failure = suites.testsuite?.[0]?.testcase?.find((c) => c.failure)?.failure?.[0]?.message ?? '';
  return { code, stdout, xml, report, failure };
}

/** The block the terminal prints under the FAIL line (indented by four). */
function blockAfterFail(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => / FAIL /.test(line));
  return lines
    .slice(start + 1)
    .filter((line) => line.startsWith('    '))
    .map((line) => line.slice(4));
}

/** Well-formed XML 1.0: a parser finds no error, and every character is one XML may hold. */
function expectWellFormed(xml: string): void {
  const window = new Window();
  const doc = new window.DOMParser().parseFromString(xml, 'application/xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  expect(doc.documentElement.tagName).toBe('testsuites');
  expect(xml).not.toMatch(/[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u);
  void window.happyDOM.close();
}

describe('a failing run explains itself', () => {
  it('expects background-exhausted where the player recovered: the version poll the rule failed once, and its retry answered', async () => {
    // The storm fails the version poll once only: its background retry is answered and the player plays on.
    const { code, stdout, xml, report, failure } = await run(
      'recovered',
      withRule((rule) => ({ ...rule, match: { path: '/version' }, times: 1 })),
    );
    expect(code, stdout).toBe(1);

    const block = blockAfterFail(stdout);
    expect(block[0]).toMatch(/^ {2}expected {2,}actual$/);
    // Met as expected before it: the same transition on both sides, with its time and its states.
    const first = block.findIndex((line) => line.endsWith('← first difference'));
    expect(block[first - 1]).toMatch(/^ {2}([\w-]+) +\1 +\+00:\d\d:\d\d\.\d{3} {2}[A-Z]+ → [A-Z]+$/);
    // What was due against what came instead (or nothing, when the player went through no more).
    expect(block[first]).toMatch(
      /^≠ background-exhausted +([\w-]+ +\+00:\d\d:\d\d\.\d{3} .*|\(nothing\) {2})← first difference$/,
    );
    expect(block).toContainEqual(
      expect.stringMatching(
        /^> \+00:10:00\.000 {2}GET \/queues\/[\w-]+\/v2\.3\/version +no reason +503 +rule "503 storm" \(fault-\w+ at cloudQueue: status 503\)$/,
      ),
    );
    expect(block).toContainEqual(
      expect.stringMatching(
        /^ {2}\+00:10:10\.000 {2}GET \/queues\/[\w-]+\/v2\.3\/version +no reason +200 \(retry 1\) +no rule$/,
      ),
    );

    const explanation = report.steps.at(-1)?.explanation;
    const expected = bundle.scenario.steps.findLast((s) => s.type === 'expect');
    expect(explanation).toMatchObject({
      playerId: 'player-kitchen',
      firstDifference: expected?.type === 'expect' ? expected.transitions?.indexOf('background-exhausted') : -1,
    });
    expect(explanation?.rows.find((row) => row.first)).toMatchObject({
      expected: 'background-exhausted',
      mark: 'differs',
    });
    expect(explanation?.exchanges.find((e) => e.anchor)).toMatchObject({
      method: 'GET',
      path: expect.stringMatching(/\/version$/),
      reason: null,
      status: 503,
      fault: { label: '503 storm', target: 'cloudQueue', action: 'status', status: 503 },
    });
    expect(explanation?.exchanges).toContainEqual(
      expect.objectContaining({ path: expect.stringMatching(/\/version$/), status: 200, retry: 1, fault: null }),
    );

    // The JUnit failure message says the same, line for line.
    expectWellFormed(xml);
    expect(failure).toMatch(/^player-kitchen: no background-exhausted transition after [\w-]+ \(saw: /);
    for (const line of block) expect(failure.split('\n')).toContain(line);
  });

  it('expects load-answered-paused where the load played: the itemWindow load that caused what came, with its reason', async () => {
    const changed = structuredClone(bundle);
    const step = changed.scenario.steps.findLast((s) => s.type === 'expect');
    if (step?.type !== 'expect' || !step.transitions)
      throw new Error('the exported scenario has no expected transitions');
    step.transitions = step.transitions.map((name) => (name === 'load-answered-plays' ? 'load-answered-paused' : name));
    const { code, stdout, report, failure } = await run('pauses', changed);
    expect(code, stdout).toBe(1);

    const block = blockAfterFail(stdout);
    const first = block.findIndex((line) => line.endsWith('← first difference'));
    expect(block[first]).toMatch(
      /^≠ load-answered-paused +load-answered-plays +\+00:00:00\.000 {2}IDLE → BUFFERING {2}← first difference$/,
    );
    // A later agreement lines up rather than every row after the first difference differing.
    expect(block.slice(first + 1)).toContainEqual(expect.stringMatching(/^ {2}([\w-]+) +\1 +\+00:/));
    expect(block).toContainEqual(
      expect.stringMatching(
        /^> \+00:00:00\.000 {2}GET \/queues\/[\w-]+\/v2\.3\/itemWindow +reason=load +200 +no rule +→ load-answered-plays$/,
      ),
    );
    expect(block).toContainEqual(
      expect.stringMatching(/POST \/queues\/[\w-]+\/v2\.3\/timePlayed +no reason +503 +rule "503 storm"/),
    );

    expect(report.steps.at(-1)?.explanation?.exchanges.find((e) => e.anchor)).toMatchObject({
      method: 'GET',
      reason: 'load',
      status: 200,
      caused: ['load-answered-plays'],
    });
    expect(failure).toMatch(/reason=load +200 +no rule +→ load-answered-plays/);
  });

  it('explains a wrong end by what the player went through and the exchanges its state came after (outsider F6)', async () => {
    const changed = structuredClone(bundle);
    const step = changed.scenario.steps.findLast((s) => s.type === 'expect');
    if (step?.type !== 'expect' || !step.state) throw new Error('the exported scenario checks no end state');
    const actual = step.state;
    step.state = actual === 'PAUSED' ? 'PLAYING' : 'PAUSED';
    const { code, stdout, report, failure } = await run('end', changed);
    expect(code, stdout).toBe(1);
    const block = blockAfterFail(stdout);
    expect(block).toContain('  (the transitions were met: the check failed on where it ended, its state)');
    expect(block).toContainEqual(
      expect.stringMatching(
        /^exchanges of player-[\w-]+ up to the check \(>: the (answer its state came from|last before the check: no answer made its last transition)\):$/,
      ),
    );
    const explanation = report.steps.at(-1)?.explanation;
    expect(explanation).toMatchObject({ subject: 'state', firstDifference: step.transitions?.length ?? 0 });
    // Every row met or let pass, the last the transition that left it in the state it is in.
    expect(explanation!.rows.every((row) => row.mark !== 'differs')).toBe(true);
    expect(explanation!.rows.at(-1)?.actual?.to).toBe(actual);
    expect(explanation!.exchanges.filter((e) => e.anchor)).toHaveLength(1);
    expect(failure).toMatch(/the check failed on where it ended, its state/);
  });

  it('explains unmet requests by the exchanges up to the check, the first that failed marked (outsider F6)', async () => {
    // A 500 storm where the source saw a 503 one: the same transitions, other requests.
    const { code, stdout, report } = await run(
      'requests',
      withRule((rule) => ({ ...rule, action: { type: 'status', status: 500 } })),
    );
    expect(code, stdout).toBe(1);
    const explanation = report.steps.find((s) => s.status === 'failed')?.explanation;
    expect(explanation?.subject, stdout).toBe('requests');
    expect(explanation!.exchanges.find((e) => e.anchor)).toMatchObject({ status: 500 });
    expect(blockAfterFail(stdout)).toContainEqual(
      expect.stringMatching(
        /^> \+\d\d:\d\d:\d\d\.\d{3} {2}POST \/queues\/[\w-]+\/v2\.3\/timePlayed +no reason +500 +rule "503 storm"/,
      ),
    );
  });

  it('replaces the control characters of a rule label in the terminal and keeps the JUnit report well-formed', async () => {
    const { code, stdout, xml, report, failure } = await run(
      'escapes',
      withRule((rule) => ({ ...rule, match: { path: '/version' }, times: 1, label: '503 \u001b[2Jstorm\u0007\u202e' })),
    );
    expect(code, stdout).toBe(1);
    expect([...stdout].filter((c) => /\p{Cc}/u.test(c) && c !== '\n')).toEqual([]);
    expect(stdout).not.toContain('\u202e');
    expect(stdout).toContain('rule "503 \ufffd[2Jstorm\ufffd\ufffd" (fault-');
    expectWellFormed(xml);
    expect(failure).toContain('rule "503 \ufffd[2Jstorm\ufffd\ufffd"');
    // The JSON report keeps the label as it is: JSON escapes it.
    expect(report.steps.at(-1)?.explanation?.exchanges.find((e) => e.anchor)?.fault?.label).toBe(
      '503 \u001b[2Jstorm\u0007\u202e',
    );
  });
});
