/**
 * `cloud-queue-console check --replay` (docs/contract/console.md §1, §8): a server fails a case,
 * `check --json` writes the report; replayed against the same server still broken, the case is
 * STILL FAILING (exit 1); once the server is fixed, FIXED (exit 0). Only the replayed cases' requests
 * (and those of the cases they build on) go out, each naming its case. A bad report is exit 2.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CASE_EXCHANGES, type ConformanceRun } from '../engine/api/conformance-types.js';
import { replayLine } from './check-replay.js';
import { startDefectiveServer, type DefectiveServer } from '../engine/conformance/testing/defective-server.js';
import { runCli } from '../testing/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'cqc-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One address in front of a broken and a fixed server: "fixing" it is pointing it at the other. */
interface Front {
  baseUrl: string;
  target: DefectiveServer;
  /** `endpoint [X-Conformance-Case]` of each request. */
  seen: string[];
  /** Each request as `sentLine` writes it. */
  sent: string[];
  /** Every connection dropped, as a server that is down. */
  down?: boolean;
  /** GET itemWindow without itemId answered 500: item-window.first fails, and what builds on it is skipped. */
  breakFirstWindow?: boolean;
}

/** `GET /q/itemWindow?… [made-up Authorization]`: the run's own token is masked in the report. */
const sentLine = (method: string, pathAndQuery: string, authorization: string | undefined) =>
  `${method} ${pathAndQuery}${authorization?.includes('cqc-check-') ? ` ${authorization}` : ''}`;

let broken: DefectiveServer;
let fixed: DefectiveServer;
let proxy: Server;
const front = {} as Front;

beforeAll(async () => {
  broken = await startDefectiveServer({
    defects: ['unknownItemFromStart', 'acceptsNegativeSize', 'acceptsWrongToken'],
  });
  fixed = await startDefectiveServer();
  front.target = broken;
  front.seen = [];
  front.sent = [];
  proxy = createServer((req, res) => {
    const path = req.url!.replace(/^\/q\//, '');
    front.seen.push(`${path.split('?')[0]} [${String(req.headers['x-conformance-case'])}]`);
    front.sent.push(sentLine(req.method!, req.url!, req.headers.authorization));
    if (front.down) return void req.socket.destroy();
    if (front.breakFirstWindow && path.startsWith('itemWindow') && !path.includes('itemId='))
      return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"broken"}');
    const to = new URL(`${front.target.baseUrl}${path}`);
    const out = httpRequest(to, { method: req.method, headers: { ...req.headers, host: to.host } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(out);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  front.baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/q/`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await broken.close();
  await fixed.close();
});

/** `check` of the front's server as a user runs it, writing the JSON report a replay reads. */
const checkWritingJson = (json: string, authorization: string) =>
  runCli('check', front.baseUrl, '--authorization', authorization, '--json', json);

describe('check --replay', () => {
  let report: string;
  let authorization: string;

  beforeAll(async () => {
    authorization = broken.authorization;
    report = join(dir, 'report.json');
    const { code, stdout } = await checkWritingJson(report, authorization);
    expect(code, stdout).toBe(1);
  });

  it('says STILL FAILING, with the decisive request then and now, while the server is broken: exit 1', async () => {
    const run = JSON.parse(readFileSync(report, 'utf8')) as ConformanceRun;
    const failing = run.cases.filter((c) => c.outcome === 'fail').map((c) => c.id);
    expect(failing).toEqual(['item-window.unknown-item', 'item-window.negative-size', 'auth.wrong-token']);
    const warnings = run.cases.filter((c) => c.outcome === 'warn').length;
    // What the report says was sent for the cases that made values up: an itemId, a token.
    const recorded = (id: string) =>
      run.cases
        .find((c) => c.id === id)!
        .exchanges!.map((e) =>
          sentLine(e.method, `${new URL(e.url).pathname}${new URL(e.url).search}`, e.requestHeaders.authorization),
        );
    const unknownItemSent = recorded('item-window.unknown-item');
    const wrongTokenSent = recorded('auth.wrong-token').filter((line) => line.includes('cqc-check-wrong-'));
    // One for each of the ten reasons (the address names no version, so the joined one too), of
    // which the report keeps the first MAX_CASE_EXCHANGES.
    expect(unknownItemSent).toHaveLength(MAX_CASE_EXCHANGES);
    // The made-up token on each of the four calls (a window of each of the ten reasons, two
    // reports: 14), of which the report keeps the first MAX_CASE_EXCHANGES.
    expect(wrongTokenSent).toHaveLength(MAX_CASE_EXCHANGES);
    front.seen = [];
    front.sent = [];
    const { code, stdout } = await runCli('check', '--replay', report, '--authorization', authorization);
    expect(code, stdout).toBe(1);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe(`replay ${report}: ${3 + warnings} cases against ${front.baseUrl}`);
    expect(lines[1]).toMatch(/^STILL FAILING {2}item-window\.unknown-item: .* — .*expected 404/);
    // The very request of the report went out again, and the line names it once, with both answers.
    const itemId = /itemId=(cqc-check-no-such-item-[0-9a-f]+)/.exec(unknownItemSent[0]!)![1]!;
    expect(lines[2]).toMatch(
      new RegExp(`^ {15}GET http://127\\.0\\.0\\.1:\\d+/q/itemWindow\\?.*itemId=${itemId}\\b.*: was 200, now 200$`),
    );
    expect(lines[3]).toMatch(/^STILL FAILING {2}item-window\.negative-size: /);
    expect(lines.some((line) => /^STILL FAILING {2}auth\.wrong-token: /.test(line))).toBe(true);
    expect(lines.at(-1)).toMatch(/^STILL FAILING · 0 of 3 failing cases fixed(, 0 of \d+ warnings? gone)?$/);
    for (const line of [...unknownItemSent, ...wrongTokenSent]) expect(front.sent).toContain(line);
    // The replayed cases and what they build on: no report but the wrong-token case's, no walk.
    const reports = front.seen.filter((line) => line.startsWith('timePlayed'));
    expect(reports.length).toBeGreaterThan(0);
    expect(
      reports.every((line) => line.includes('[auth.wrong-token]')),
      reports.join('\n'),
    ).toBe(true);
    expect(front.seen.filter((line) => line.includes('[item-window.unknown-item]'))).toHaveLength(10);
    expect(
      front.seen.every((line) => !line.endsWith('[undefined]')),
      front.seen.join('\n'),
    ).toBe(true);
  });

  it('says FIXED per case once the server is fixed: exit 0', async () => {
    front.target = fixed;
    try {
      const { code, stdout } = await runCli('check', '--replay', report, '--authorization', authorization);
      expect(code, stdout).toBe(0);
      const lines = stdout.trim().split('\n');
      expect(lines[1]).toMatch(/^FIXED {10}item-window\.unknown-item: .* — .*404/);
      expect(lines[2]).toMatch(/^FIXED {10}item-window\.negative-size: /);
      // A warning that stays (a loopback address) is said, and fails nothing, as in check.
      for (const line of lines.slice(3, -1)) expect(line).toMatch(/^(STILL WARNING|FIXED) |^ {15}/);
      expect(lines.at(-1)).toMatch(/^FIXED · 3 of 3 failing cases fixed/);
      // Fewer cases than the check ran, and said so (audit Y15: a leak read FIXED).
      const ran = (JSON.parse(readFileSync(report, 'utf8')) as ConformanceRun).cases.length;
      expect(lines.at(-1)).toMatch(
        new RegExp(
          ` · judged with \\d+ of the ${ran} cases the check ran: a defect that shows only after more requests \\(a leak, a rate limit\\) passes here; a whole check tells$`,
        ),
      );
      // Fixed on the very requests they had failed on, as the replay's traffic shows.
      expect(stdout).not.toMatch(/not asked again/);
    } finally {
      front.target = broken;
    }
  });

  it('names both requests when the case now turns on another one than the report recorded', () => {
    const exchange = (url: string, status: number) => ({
      method: 'GET',
      url,
      status,
      failure: null,
      requestHeaders: {},
      requestBody: null,
      responseHeaders: {},
      responseBody: null,
      latencyMs: 3,
    });
    const before = {
      id: 'item-window.centred',
      rule: 'r',
      title: 'Centred',
      outcome: 'fail' as const,
      message: 'off centre',
      trafficIds: [],
      durationMs: 5,
      exchanges: [exchange('http://q.example/itemWindow?itemId=a', 200)],
    };
    const now = { ...before, exchanges: [exchange('http://q.example/itemWindow?itemId=b', 500)] };
    expect(replayLine(before, now, false).split('\n')).toEqual([
      'STILL FAILING  item-window.centred: Centred — off centre',
      '               was GET http://q.example/itemWindow?itemId=a: 200',
      '               now GET http://q.example/itemWindow?itemId=b: 500',
      '',
    ]);
    const same = { ...before, exchanges: [exchange('http://q.example/itemWindow?itemId=a', 500)] };
    expect(replayLine(before, same, false).split('\n')[1]).toBe(
      '               GET http://q.example/itemWindow?itemId=a: was 200, now 500',
    );
    // Fixed on other requests than the one it failed on: a FIXED that never asked that again
    // (audit). A pass keeps no exchanges: what it asked comes from its traffic.
    const passed = { ...before, outcome: 'pass' as const, message: 'centred', exchanges: undefined };
    expect(
      replayLine(before, passed, true, ['GET http://q.example/itemWindow', 'GET http://q.example/context']).split('\n'),
    ).toEqual([
      'FIXED          item-window.centred: Centred — centred',
      '               was GET http://q.example/itemWindow?itemId=a: 200',
      '               not asked again: it asked GET http://q.example/itemWindow, and 1 more',
      '',
    ]);
    expect(replayLine(before, passed, true, ['GET http://q.example/itemWindow?itemId=a']).split('\n')).toEqual([
      'FIXED          item-window.centred: Centred — centred',
      '',
    ]);
    // Nothing known of what it asked (capture off): nothing claimed.
    expect(replayLine(before, passed, true, []).split('\n')).toHaveLength(2);
    // Skipped in the replay (a case it builds on failed now): not judged, not "still failing" (audit).
    const skipped = { ...before, outcome: 'skip' as const, message: 'skipped: it builds on x', exchanges: undefined };
    expect(replayLine(before, skipped, false).split('\n')[0]).toBe(
      'NOT JUDGED     item-window.centred: Centred — skipped: it builds on x',
    );
  });

  it('replays every case of a report whose server could not be reached: FIXED only once it is', async () => {
    const unreachable = join(dir, 'unreachable.json');
    front.down = true;
    try {
      const { code, stderr } = await checkWritingJson(unreachable, authorization);
      expect(code, stderr).toBe(2);
      // Still down: nothing was checked, so nothing is fixed.
      const down = await runCli('check', '--replay', unreachable, '--authorization', authorization);
      expect(down.code).toBe(2);
      expect(down.stderr).toMatch(/^cannot reach the cloud queue server at /m);
    } finally {
      front.down = false;
    }
    front.target = fixed;
    try {
      const { code, stdout } = await runCli('check', '--replay', unreachable, '--authorization', authorization);
      expect(code, stdout).toBe(0);
      const lines = stdout.trim().split('\n');
      const total = (JSON.parse(readFileSync(unreachable, 'utf8')) as ConformanceRun).summary.total;
      expect(lines[0]).toBe(`replay ${unreachable}: ${total} cases against ${front.baseUrl}`);
      expect(lines.slice(1, -1).filter((line) => line.startsWith('FIXED'))).toHaveLength(total);
      // The loopback http base URL still warns: fixed, and its line says it warns (audit).
      expect(lines).toContainEqual(expect.stringMatching(/^FIXED, WARNS {3}base-url\.reachable: /));
      expect(lines.at(-1)).toBe(`FIXED · ${total} of ${total} failing cases fixed`);
      // Each fixed where it had failed: its request asked again, read back from the replay's traffic.
      expect(stdout).not.toMatch(/not asked again/);
    } finally {
      front.target = broken;
    }
  });

  it('says PASSED, not FIXED, of a report of warnings only whose warnings stay (audit Z6)', async () => {
    const warned = join(dir, 'warned.json');
    front.target = fixed;
    try {
      const { code, stdout } = await checkWritingJson(warned, authorization);
      expect(code, stdout).toBe(0);
      const replay = await runCli('check', '--replay', warned, '--authorization', authorization);
      expect(replay.code, replay.stdout).toBe(0);
      const lines = replay.stdout.trim().split('\n');
      expect(lines).toContainEqual(expect.stringMatching(/^STILL WARNING {2}base-url\.reachable: /));
      expect(lines.at(-1)).toMatch(/^PASSED · 0 of \d+ warnings? gone$/);
    } finally {
      front.target = broken;
    }
    // A warning that fails now is worse than the report, not a pass (review): the same report with
    // auth.wrong-token as a warning, replayed against the server that fails it.
    const report = JSON.parse(readFileSync(warned, 'utf8')) as ConformanceRun;
    const worse = join(dir, 'worse.json');
    writeFileSync(
      worse,
      JSON.stringify({
        ...report,
        cases: report.cases.map((c) => (c.id === 'auth.wrong-token' ? { ...c, outcome: 'warn' } : c)),
      }),
    );
    const replay = await runCli('check', '--replay', worse, '--authorization', authorization);
    expect(replay.code, replay.stdout).toBe(1);
    const lines = replay.stdout.trim().split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^NOW FAILING {4}auth\.wrong-token: /));
    expect(lines.at(-1)).toMatch(/^STILL FAILING · 0 of \d+ warnings gone, 1 warning now failing$/);
  });

  it('says it cannot reach a server gone since a report of failures: exit 2, not STILL FAILING', async () => {
    front.down = true;
    try {
      const gone = await runCli('check', '--replay', report, '--authorization', authorization);
      expect(gone.code, gone.stdout).toBe(2);
      expect(gone.stderr).toMatch(/^cannot reach the cloud queue server at /m);
      expect(gone.stdout).not.toMatch(/STILL FAILING/);
    } finally {
      front.down = false;
    }
  });

  it('runs what a failing case had made skip: a defect hidden behind it fails the replay', async () => {
    const onlyFinal = await startDefectiveServer({ defects: ['refusesFinalReport'] });
    const hidden = join(dir, 'hidden.json');
    front.target = onlyFinal;
    front.breakFirstWindow = true;
    try {
      const { code, stdout } = await checkWritingJson(hidden, onlyFinal.authorization);
      expect(code, stdout).toBe(1);
      const run = JSON.parse(readFileSync(hidden, 'utf8')) as ConformanceRun;
      expect(run.cases.find((c) => c.id === 'time-played.final')?.outcome).toBe('skip');
      // item-window.first fixed, and the final report it hid now checked: still failing as a whole.
      front.breakFirstWindow = false;
      const replay = await runCli('check', '--replay', hidden, '--authorization', onlyFinal.authorization);
      expect(replay.code, replay.stdout).toBe(1);
      const lines = replay.stdout.trim().split('\n');
      expect(lines).toContainEqual(expect.stringMatching(/^FIXED {10}item-window\.first: /));
      expect(lines).toContainEqual(
        expect.stringMatching(/^NOW FAILING {4}time-played\.final: .*expected 204 \(or 200\), got 400/),
      );
      expect(lines.at(-1)).toMatch(
        // time-played.final fails, and play-through, which builds on it, is left unrun again.
        /^STILL FAILING · (\d+) of \1 failing cases? fixed, 2 of \d+ skipped cases now failing or not run/,
      );
    } finally {
      front.target = broken;
      front.breakFirstWindow = false;
      await onlyFinal.close();
    }
  });

  it('(audit) a fix that breaks a case the replayed ones build on is no FIXED: it is named, exit 1', async () => {
    const versionWrong = await startDefectiveServer({ defects: ['versionDisagrees'] });
    const endsWrong = await startDefectiveServer({ defects: ['endNeverTrue'] });
    const before = join(dir, 'version.json');
    front.target = versionWrong;
    try {
      expect((await checkWritingJson(before, versionWrong.authorization)).code).toBe(1);
      const run = JSON.parse(readFileSync(before, 'utf8')) as ConformanceRun;
      expect(run.cases.find((c) => c.id === 'version')?.outcome).toBe('fail');
      expect(run.cases.find((c) => c.id === 'play-through')?.outcome).toBe('skip');
      // The version fixed, the ends broken: play-through, replayed, is skipped again for the ends.
      front.target = endsWrong;
      const replay = await runCli('check', '--replay', before, '--authorization', endsWrong.authorization);
      expect(replay.code, replay.stdout).toBe(1);
      const lines = replay.stdout.trim().split('\n');
      expect(lines).toContainEqual(expect.stringMatching(/^FIXED {10}version: /));
      expect(lines).toContainEqual(expect.stringMatching(/^STILL SKIPPED {2}play-through: /));
      expect(lines).toContainEqual(
        expect.stringMatching(/^NOW FAILING {4}item-window\.queue-ends: .*\(a case the replayed ones build on\)$/),
      );
      expect(lines.at(-1)).toMatch(
        // Skipped before: play-through, and version.throughout (it builds on version); the first still is.
        /^STILL FAILING · 1 of 1 failing case fixed, 1 of 2 skipped cases now failing or not run, .*1 case they build on now failing$/,
      );
    } finally {
      front.target = broken;
      await versionWrong.close();
      await endsWrong.close();
    }
  });

  it('exits 2 for a report it cannot use, or an Authorization it was not given again', async () => {
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '<html>');
    const deep = join(dir, 'deep.json');
    writeFileSync(deep, '['.repeat(200_000));
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ name: 'a scenario', steps: [] }));
    // Reports no run can replay: refused as reports, not failed as checks (outsider: exit 1).
    const written = JSON.parse(readFileSync(report, 'utf8')) as ConformanceRun;
    const asReport = (name: string, change: Partial<ConformanceRun>) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify({ ...written, ...change }));
      return path;
    };
    const fileUrl = asReport('file-url.json', { baseUrl: 'file:///etc/' });
    const withPassword = asReport('with-password.json', { baseUrl: 'http://user:secret@127.0.0.1:1/q/' });
    const unknownCases = asReport('unknown-cases.json', {
      cases: written.cases.map((result) => ({ ...result, id: `bogus-${result.id}`, outcome: 'fail' as const })),
    });
    for (const [args, message] of [
      [['--replay', join(dir, 'missing.json')], /cannot read the report/],
      [['--replay', notJson], /the report .*not\.json is not JSON: line 1, column 1: not a JSON value/],
      [['--replay', deep], /nests arrays and objects more than 100 deep/],
      [['--replay', other], /is not a report of check --json/],
      [
        ['--replay', report],
        /carried an Authorization \(Bearer toke•••\), which the report holds masked: give it again with --authorization/,
      ],
      [['--replay', report, front.baseUrl], /takes its BASE_URL from the report/],
      [['--replay', fileUrl, '--authorization', authorization], /^the report's baseUrl must match pattern/m],
      [
        ['--replay', withPassword, '--authorization', authorization],
        /^the report's baseUrl carries a user name or password, which a base URL must not: give credentials with --authorization$/m,
      ],
      [['--replay', unknownCases, '--authorization', authorization], /^no case "bogus-/m],
      [
        ['--replay', report, '--authorization', authorization, '--timeout', '0'],
        /--timeout must be a number of seconds/,
      ],
    ] as [string[], RegExp][]) {
      const { code, stderr, stdout } = await runCli('check', ...args);
      expect(code, stderr).toBe(2);
      expect(stderr).toMatch(message);
      // The replay's own usage, not check BASE_URL's (audit).
      expect(stderr).toContain('usage: cloud-queue-console check --replay REPORT.json');
      expect(stderr).not.toContain('usage: cloud-queue-console check BASE_URL');
      expect(stdout).toBe('');
    }
  });
});
