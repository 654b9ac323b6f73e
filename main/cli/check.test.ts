/**
 * `cloud-queue-console check` (docs/contract/console.md §1, §8) as a CI job meets it: each case
 * printed as it settles, then a summary; exit 1 against a server wrong in one way, with that case
 * failing and its JUnit test case saying so (read back by a JUnit parser); exit 0 against the
 * console's own queues and a right server (warnings allowed); exit 2 for a bad command line or a
 * server that cannot be reached at all, the reports still written for CI to show.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type TestSuites } from 'junit2json';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceRun } from '../engine/api/conformance-types.js';
import type { QueueSummary } from '../engine/api/queue-types.js';
import { caseInfos } from '../engine/conformance/suite.js';
import {
  startDefectiveServer,
  type Defect,
  type DefectiveServer,
} from '../engine/conformance/testing/defective-server.js';
import type { Engine } from '../engine/index.js';
import { admin, startTestEngine } from '../engine/testing/http.js';
import { tempDirs } from '../engine/testing/temp-dirs.js';
import { runCli } from '../testing/cli.js';

const tempDir = tempDirs('cqc-check-');
const CASES = caseInfos().length;

let server: DefectiveServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serverWith(...defects: Defect[]): Promise<DefectiveServer> {
  server = await startDefectiveServer({ defects });
  return server;
}

describe('cloud-queue-console check against a server wrong in one way', () => {
  it.each([
    [
      'unknownItemFromStart',
      'item-window.unknown-item',
      /expected 404 .*got 200 with a window of 11 items \(item-1 … item-11\)/,
    ],
    ['moreThanAsked', 'item-window.size-limits', /more than upcomingWindowSize=0/],
    ['acceptsNegativeSize', 'item-window.negative-size', /previousWindowSize=-1.*expected 400 .*got 200/],
    ['acceptsWrongToken', 'auth.wrong-token', /with a made-up token: expected 401, got 200: the server took it/],
    ['tracksWithoutMediaUrl', 'item-window.items', /has track\.mediaUrl \(none\), expected a non-empty string/],
    [
      'beginningAlwaysTrue',
      'item-window.queue-ends',
      /includesBeginningOfQueue true, but the window starts at item 30/,
    ],
  ] as [Defect, string, RegExp][])(
    '%s: exit 1, %s failing, and its JUnit test case says so',
    async (defect, caseId, message) => {
      const { baseUrl, authorization } = await serverWith(defect);
      const dir = tempDir();
      const junit = join(dir, 'conformance.xml');
      const { code, stdout, stderr } = await runCli(
        'check',
        baseUrl,
        '--authorization',
        authorization,
        '--junit',
        junit,
      );
      expect(code, stdout).toBe(1);
      const lines = stdout.trim().split('\n');
      expect(lines[0]).toBe(`check ${baseUrl}: ${CASES} cases, with the Authorization given`);
      const caseLines = lines.slice(1, -1);
      expect(caseLines).toHaveLength(CASES);
      expect(caseLines.filter((line) => line.startsWith('FAIL'))).toEqual([
        expect.stringMatching(new RegExp(`^FAIL +\\d+/${CASES} ${caseId.replace(/\./g, '\\.')}: `)),
      ]);
      expect(caseLines.find((line) => line.startsWith('FAIL'))).toMatch(message);
      expect(lines.at(-1)).toMatch(
        new RegExp(`^FAILED · \\d+ passed, \\d+ warned, 1 failed, \\d+ skipped of ${CASES} cases · \\d+\\.\\d s$`),
      );
      expect(stderr).toContain(`wrote ${junit}`);

      const suite = ((await parse(readFileSync(junit, 'utf8'))) as TestSuites).testsuite![0]!;
      expect(suite).toMatchObject({ tests: CASES, failures: 1 });
      const failing = suite.testcase!.filter((testCase) => testCase.failure);
      expect(failing.map((testCase) => testCase.name?.split(':')[0])).toEqual([caseId]);
      expect(failing[0]!.failure![0]!.message).toMatch(message);
    },
  );
});

describe('cloud-queue-console check against servers that keep the contract', () => {
  let engine: Engine;
  beforeAll(async () => {
    engine = await startTestEngine();
  });
  afterAll(() => engine.close());

  it("passes the console's own queues: exit 0, with the JSON and HTML reports written", async () => {
    const queue = (
      await admin(engine, 'POST', '/queues', {
        items: Array.from({ length: 12 }, (_, i) => ({ track: { name: `T${i}` } })),
      })
    ).body as QueueSummary;
    const dir = tempDir();
    const json = join(dir, 'run.json');
    const html = join(dir, 'run.html');
    const { code, stdout } = await runCli(
      'check',
      queue.queueBaseUrl,
      '--authorization',
      queue.httpAuthorization,
      '--json',
      json,
      '--html',
      html,
    );
    expect(code, stdout).toBe(0);
    // The one warning: a loopback http base URL is one the platform's players could never reach.
    expect(stdout.trim().split('\n').at(-1)).toMatch(
      new RegExp(`^PASSED · ${CASES - 1} passed, 1 warned, 0 failed, 0 skipped of ${CASES} cases`),
    );
    expect(stdout).toMatch(/^warn +\d+\/\d+ base-url\.reachable: /m);
    const report = JSON.parse(readFileSync(json, 'utf8')) as ConformanceRun & { kind: string };
    expect(report).toMatchObject({
      kind: 'cloud-queue-console/conformance-run',
      status: 'passed',
      baseUrl: queue.queueBaseUrl,
      authorization: expect.stringMatching(/^Bearer .{4}•••$/),
    });
    expect(report.cases).toHaveLength(CASES);
    expect(readFileSync(html, 'utf8')).toMatch(/^<!doctype html>[\s\S]*Cloud queue conformance: PASSED/);
  });

  it("passes an empty queue of the console's too, its item cases skipped (exit 0)", async () => {
    const queue = (await admin(engine, 'POST', '/queues', {})).body as QueueSummary;
    const { code, stdout } = await runCli('check', queue.queueBaseUrl, '--authorization', queue.httpAuthorization);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(
      new RegExp(`^skip +\\d+/${CASES} time-played\\.final: .* — the queue is empty: no item to report on$`, 'm'),
    );
  });

  it('allows warnings (a slow answer): exit 0; the same server without its credentials: exit 1', async () => {
    server = await startDefectiveServer({ versionDelayMs: 1_100 });
    const { code, stdout } = await runCli('check', server.baseUrl, '--authorization', server.authorization);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(
      new RegExp(
        `^warn +\\d+/${CASES} timing: Every answer comes within 1 s — 1 of \\d+ answers took more than 1 s: GET /version took 1,\\d{3} ms$`,
        'm',
      ),
    );
    expect(stdout.trim().split('\n').at(-1)).toMatch(
      new RegExp(`^PASSED · ${CASES - 2} passed, 2 warned, 0 failed, 0 skipped of ${CASES} cases`),
    );
    expect((await runCli('check', server.baseUrl)).code).toBe(1);
  }, 20_000);
});

describe('cloud-queue-console check: exit 2', () => {
  it.each([
    ['no BASE_URL', [], /check needs the BASE_URL/],
    [
      'a BASE_URL that is no URL',
      ['queues/1'],
      /BASE_URL must be an absolute http\(s\) URL, got queues\/1 \(it has no scheme: start it with http:\/\/ or https:\/\/\)/,
    ],
    ['a BASE_URL past the last port', ['http://127.0.0.1:99999/q/'], /\(its port 99999 is past 65535\)/],
    ['a BASE_URL that is not http', ['ftp://example.com/q'], /BASE_URL must be http or https/],
    ['a BASE_URL with credentials in it', ['http://u:p@127.0.0.1:1/q/'], /must not carry a user name or password/],
    [
      'a BASE_URL with a query string, which every request would leave behind',
      ['http://127.0.0.1:1/q/v2.3/?tenant=acme'],
      /must not carry a query string \(\?tenant=acme\): the player appends context, itemWindow, version and timePlayed to its path/,
    ],
    ['a BASE_URL with a fragment', ['http://127.0.0.1:1/q/#x'], /must not carry a fragment \(#x\)/],
    [
      'an unknown option',
      ['http://127.0.0.1:1/q', '--token', 'x'],
      /^unknown option --token: this command takes --authorization, --timeout, --junit, --json, --html$/m,
    ],
    [
      'an Authorization no header can carry',
      ['http://127.0.0.1:1/q', '--authorization', 'Bearer a\nb'],
      /--authorization must be a value an HTTP header can carry/,
    ],
    // Refused by the engine's own bounds, as a bad command line too (outsider: exit 1).
    [
      'a BASE_URL longer than a run takes',
      [`http://127.0.0.1:1/${'a'.repeat(3_000)}/`],
      /^BASE_URL must not have more than 2048 characters$/m,
    ],
    [
      'an Authorization longer than a run takes',
      ['http://127.0.0.1:1/q/', '--authorization', `Bearer ${'t'.repeat(9_000)}`],
      /^--authorization must not have more than 8192 characters$/m,
    ],
  ])('refuses %s, with the usage', async (_what, args, message) => {
    const { code, stdout, stderr } = await runCli('check', ...args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('usage: cloud-queue-console check BASE_URL');
    expect(stdout).toBe('');
  });

  it('refuses a report path it cannot write before anything runs', async () => {
    const { code, stdout, stderr } = await runCli(
      'check',
      'http://127.0.0.1:1/q/',
      '--html',
      join(tempDir(), 'no/such/dir/r.html'),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/cannot write the report to .*r\.html/);
    expect(stdout).toBe('');
  });

  it('says a server it cannot reach at all in one message, and still writes the JUnit report', async () => {
    const gone = await startDefectiveServer();
    await gone.close();
    const junit = join(tempDir(), 'unreachable.xml');
    const { code, stdout, stderr } = await runCli('check', gone.baseUrl, '--junit', junit);
    expect(code).toBe(2);
    expect(stdout).toBe(`check ${gone.baseUrl}: ${CASES} cases\n`);
    expect(stderr).toMatch(
      new RegExp(
        `^cannot reach the cloud queue server at ${gone.baseUrl.replace(/[.]/g, '\\.')}: connection failed: ECONNREFUSED$`,
        'm',
      ),
    );
    // A server nobody answers at may be a wrong URL: what one looks like (audit).
    expect(stderr).toContain('such as https://cloudqueue.example.com/queues/{queueId}/v2.3/');
    const suite = ((await parse(readFileSync(junit, 'utf8'))) as TestSuites).testsuite![0]!;
    expect(suite.testcase).toEqual([
      expect.objectContaining({
        name: 'the server can be reached',
        failure: [expect.objectContaining({ message: expect.stringMatching(/^cannot reach/) })],
      }),
    ]);
  });
});
