/**
 * `cloud-queue-console fleet` end to end (docs/fleet.md): exit 0 when every threshold holds, 1 when
 * one does not, 2 for a bad command line (any threshold string is parsed or refused, never a
 * crash) or a server that cannot be reached; a line a second on stderr; JSON, JUnit (one test
 * case per threshold) and HTML reports. Players play a small loopback server of the suite's tests.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDefectiveServer, type DefectiveServer } from '../engine/conformance/testing/defective-server.js';
import type { FleetReport } from '../engine/api/fleet-types.js';
import { isDraining } from './fleet.js';
import { parseFleetArgs } from './fleet-args.js';
import { main } from './index.js';
import { HelpRequested, UsageError } from './usage.js';

const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'cqc-fleet-cli-'));
let right: DefectiveServer;
let wrong: DefectiveServer;
beforeAll(async () => {
  right = await startDefectiveServer();
  wrong = await startDefectiveServer({ defects: ['moreThanAsked'] });
});
afterAll(async () => {
  await right.close();
  await wrong.close();
});

async function fleet(...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(['fleet', ...args], {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
  });
  return { code, stdout, stderr };
}

const small = (server: DefectiveServer) => [
  server.baseUrl,
  '--authorization',
  server.authorization,
  '--players',
  '5',
  '--duration',
  '12s',
  '--speed',
  '4',
];

describe('the wait at the end', () => {
  it("is said once the fleet's time is up and it still runs: the requests in flight get their 10 s", () => {
    const report = (status: string, engineMs: number) =>
      ({ status, elapsed: { engineMs, wallMs: 0 }, options: { durationMs: 10_000 } }) as unknown as FleetReport;
    expect(isDraining(report('running', 9_999))).toBe(false);
    expect(isDraining(report('running', 10_000))).toBe(true);
    expect(isDraining(report('finished', 10_000))).toBe(false);
  });
});

describe('cloud-queue-console fleet', () => {
  it('exits 0 when every threshold holds, with a line a second and its reports', async () => {
    const [json, junit, html] = ['fleet.json', 'fleet.xml', 'fleet.html'].map((name) => join(dir, name));
    const result = await fleet(
      ...small(right),
      '--threshold',
      'violations==0',
      '--threshold',
      'p99<60s',
      '--json',
      json!,
      '--junit',
      junit!,
      '--html',
      html!,
    );
    expect(result.stderr).toMatch(/players 5 .*req\/s .*p99 .*retries\/s .*violations 0/);
    // Said before the probe's up to 10 s with no line a second (audit z1-12).
    expect(result.stderr).toContain(
      "asking player 1's server first (GET …/version, up to 10 s) before any player starts",
    );
    expect(result.stdout).toMatch(/^DONE · 5 players/);
    // Per endpoint and reason, what the server answered, as the contract's end summary names it.
    expect(result.stdout).toMatch(
      /^itemWindow load {2}\d+ requests · 200 ×\d+ · 0 transport errors · \d+ retries · p50 [\d.]+ms p90 [\d.]+ms p99 [\d.]+ms max [\d.]+ms$/m,
    );
    expect(result.stdout).toMatch(/^context {2}\d+ requests · 200 ×\d+ · /m);
    expect(result.stdout).toMatch(/pass {2}violations==0/);
    expect(result.code).toBe(0);
    const report = JSON.parse(readFileSync(json!, 'utf8')) as { thresholds: unknown[]; totals: { requests: number } };
    expect(report.thresholds).toHaveLength(2);
    expect(report.totals.requests).toBeGreaterThan(0);
    const xml = readFileSync(junit!, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(2);
    expect(xml).not.toContain('<failure');
    const page = readFileSync(html!, 'utf8');
    expect(page).toContain('<svg');
    expect(page).not.toMatch(/<script|<link|src="http/);
    // The title says the heading's word: a tab or a CI artifact shows the verdict (audit z1-10).
    expect(page).toMatch(/<title>Fleet fleet-[\w-]+: passed<\/title>/);
    expect(page).toMatch(/<h1>Fleet fleet-[\w-]+: passed<\/h1>/);
  }, 60_000);

  it('exits 1 when a threshold fails: a server whose windows hold one item more than asked', async () => {
    const junit = join(dir, 'wrong.xml');
    const result = await fleet(...small(wrong), '--threshold', 'violations==0', '--junit', junit);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /violation itemWindow\.window-size \(warning\) ×\d+: .* · sample GET http:\/\/127\.0\.0\.1:\d+\/q\/itemWindow\?\S+ → 200/,
    );
    expect(result.stdout).toMatch(/FAIL {2}violations==0/);
    expect(readFileSync(junit, 'utf8')).toContain('<failure');
  }, 60_000);

  it("never prints a BASE_URL's control characters: a terminal would act on them (outsider)", async () => {
    const port = await closedPort();
    const result = await fleet(
      `http://127.0.0.1:${port}/\u001b]0;pwned\u0007/{player}/`,
      '--players',
      '1',
      '--duration',
      '1s',
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`on http://127.0.0.1:${port}/`);
    const controls = [...(result.stderr + result.stdout)].filter((c) => c !== '\n' && (c < ' ' || c === '\u007f'));
    expect(controls).toEqual([]);
  }, 60_000);

  it('exits 2 for a server that cannot be reached at all', async () => {
    const port = await closedPort();
    const json = join(dir, 'unreachable.json');
    const junit = join(dir, 'unreachable.xml');
    const result = await fleet(
      `http://127.0.0.1:${port}/queues/{player}/v2.3/`,
      ...['--players', '3', '--duration', '5s', '--threshold', 'errors<1%', '--threshold', 'p99<1s'],
      ...['--json', json, '--junit', junit],
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/cannot be reached/);
    // Its reports do not read as half passed: nothing was measured, so no threshold was judged.
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      error: { kind: string };
      thresholds: { expression: string; ok: boolean; notJudged?: string }[];
    };
    expect(report.error.kind).toBe('unreachable');
    expect(report.thresholds).toEqual([
      expect.objectContaining({
        expression: 'errors<1%',
        ok: false,
        notJudged: expect.stringMatching(/^not judged: /),
      }),
      expect.objectContaining({ expression: 'p99<1s', ok: false, notJudged: expect.stringMatching(/^not judged: /) }),
    ]);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).not.toContain('NaN');
    expect(xml.match(/<skipped\/>/g)).toHaveLength(2);
  }, 30_000);

  it('exits 2 for a bad command line, before anything runs', async () => {
    for (const args of [
      [],
      ['--players', '0'],
      ['--players', 'many'],
      ['--players', '2', '--duration', 'soon'],
      ['--players', '2', '--speed', '0'],
      ['--players', '2', '--skip-rate', '1.5'],
      ['--players', '2', '--threshold', 'p99<<250ms'],
      ['--players', '2', '--threshold', 'errors<2'],
      ['--players', '2', '--fault', 'no-such-preset-or-file'],
      ['--players', '2', '--authorization', 'Bearer x'],
      ['ftp://example.com/', '--players', '2'],
      ['--players', '2', '--bogus'],
    ]) {
      const result = await fleet(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toMatch(/usage: cloud-queue-console fleet/);
    }
  });

  it('says what is wrong with a --fault file: where its JSON breaks, or that it is too big to be rules', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cqc-fleet-fault-'));
    try {
      const broken = join(dir, 'broken.json');
      writeFileSync(broken, '[\n  { "target": "cloudQueue", }\n]');
      const big = join(dir, 'big.json');
      writeFileSync(big, `[${' '.repeat(2 * 1024 * 1024)}]`);
      const missing = await fleet('--players', '2', '--fault', join(dir, 'none.json'));
      expect(missing.stderr).toMatch(/is neither a preset \(.*\) nor a file/);
      // A file of no rule played as a fleet without faults, without a word (outsider).
      const empty = join(dir, 'empty.json');
      writeFileSync(empty, '[]');
      const none = await fleet('--players', '2', '--fault', empty);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(
        /--fault .*empty\.json holds no rule \(an empty list\): give it one, or leave --fault out/,
      );
      const syntax = await fleet('--players', '2', '--fault', broken);
      expect(syntax.code).toBe(2);
      expect(syntax.stderr).toMatch(/--fault .*broken\.json is not JSON: line 2, column 29: a property name/);
      // A schedule written into a bare rule was dropped, and the rule acted all run long (audit).
      const misplaced = join(dir, 'misplaced.json');
      writeFileSync(misplaced, '{"target":"player","action":{"type":"status","status":503},"startMs":-5}');
      const schedule = await fleet('--players', '2', '--fault', misplaced);
      expect(schedule.code).toBe(2);
      expect(schedule.stderr).toMatch(
        /entry 1 has startMs beside the rule's own fields; a rule for a while is \{"rule"/,
      );
      // Written inside the rule, it named nothing and the rule acted from the start (audit AC-3).
      const inside = join(dir, 'inside.json');
      writeFileSync(inside, '{"rule":{"target":"player","action":{"type":"drop"},"startMs":1000}}');
      const within = await fleet('--players', '2', '--fault', inside);
      expect(within.code).toBe(2);
      expect(within.stderr).toMatch(
        /entry 1 has startMs inside its rule; a rule for a while is \{"rule": \{…\}, "startMs": …\}/,
      );
      // A rule of traffic a fleet does not make would have failed its players' requests (audit AC-4).
      const elsewhere = join(dir, 'elsewhere.json');
      writeFileSync(
        elsewhere,
        '[{"target":"player","action":{"type":"drop"}},{"target":"events","action":{"type":"drop"}}]',
      );
      const events = await fleet('--players', '2', '--fault', elsewhere);
      expect(events.code).toBe(2);
      expect(events.stderr).toMatch(/faults\/1\/rule\/target \(events\) names traffic a fleet does not make/);
      const huge = await fleet('--players', '2', '--fault', big);
      expect(huge.code).toBe(2);
      expect(huge.stderr).toMatch(/big\.json is 2,097,154 bytes; the command takes files of up to 1,048,576 bytes/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says what a value must be, negative ones included, and refuses a ramp longer than the run', async () => {
    const negative = await fleet('--players', '-1');
    expect(negative.code).toBe(2);
    expect(negative.stderr).toMatch(/--players must be a whole number from 1 to 20000, got -1/);
    const ramp = await fleet('--players', '2', '--duration', '5s', '--ramp', '10s');
    expect(ramp.code).toBe(2);
    expect(ramp.stderr).toMatch(/--ramp must not be longer than --duration \(10s > 5s\)/);
    // A query would be left behind by every request, as check says too (audit).
    expect(() => parseFleetArgs(['http://127.0.0.1:1/q/?tenant=acme', '--players', '1'])).toThrow(
      /BASE_URL must not carry a query string \(\?tenant=acme\)/,
    );
  });

  it('parses any --threshold into a threshold or a usage error, never a crash', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (expression) => {
        try {
          parseFleetArgs(['--players', '1', '--threshold', expression]);
        } catch (error) {
          expect(error instanceof UsageError || error instanceof HelpRequested).toBe(true);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it("exits the process with the fleet's code (bin.ts)", async () => {
    const code = await new Promise<number | null>((done) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'main/cli/bin.ts', 'fleet', ...small(right), '--threshold', 'requests>1000000'],
        { cwd: PROJECT_ROOT, stdio: 'ignore' },
      );
      child.on('exit', done);
    });
    expect(code).toBe(1);
  }, 60_000);
});

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}
