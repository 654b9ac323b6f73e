/**
 * The command line (docs/contract/console.md §1) in process, as a CI job meets it: `run` of a repro bundle
 * exported after a 503 storm passes (exit 0), the same bundle with one expected transition changed
 * fails (exit 1) and its JUnit report names that expectation, and every kind of bad input is
 * exit 2 with a message that says what to fix. `check` has its own file (check.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, type TestSuite, type TestSuites } from 'junit2json';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReproBundle } from '../engine/api/bundle-types.js';
import { startTestEngine } from '../engine/testing/http.js';
import { tempDirs } from '../engine/testing/temp-dirs.js';
import { exportStormBundle } from '../testing/storm-bundle.js';
import { builtCli, PROJECT_ROOT } from '../testing/serve-process.js';
import { runCli } from '../testing/cli.js';

const tempDir = tempDirs('cqc-cli-');

function writeJson(name: string, value: unknown): string {
  const file = join(tempDir(), name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

let bundle: ReproBundle;
beforeAll(async () => {
  const source = await startTestEngine();
  try {
    bundle = await exportStormBundle(source.urls.console, source.adminToken);
  } finally {
    await source.close();
  }
});

describe('cloud-queue-console run', () => {
  it('replays a bundle exported after a 503 storm: every step as it runs, with engine time, then PASSED and exit 0', async () => {
    const file = writeJson('storm.bundle.json', bundle);
    const { code, stdout } = await runCli('run', file);
    expect(code, stdout).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe(
      `run ${file}: repro bundle "503 storm during playback": 1 queue, 1 fault rule, ${bundle.scenario.steps.length} steps`,
    );
    const stepLines = lines.filter((line) => line.startsWith('[+'));
    expect(stepLines).toHaveLength(bundle.scenario.steps.length);
    expect(stepLines.every((line) => / pass {2}/.test(line))).toBe(true);
    // The storm's version poll comes 10 minutes in: the expectation is checked at that engine time.
    expect(stepLines.at(-1)).toMatch(
      /^\[\+00:10:\d\d\.\d{3}\] pass .*expect player-kitchen: state \w+, .*transitions .*background-exhausted/,
    );
    expect(lines.at(-1)).toMatch(/^PASSED · \d+ passed, 0 failed, 0 skipped · expectations: 1 of 1 met · 00:10:/);
  });

  it('fails with exit 1 when one expected transition differs, and the JUnit report names that expectation', async () => {
    const changed = structuredClone(bundle);
    const expectStep = changed.scenario.steps.findLast((step) => step.type === 'expect');
    if (expectStep?.type !== 'expect' || !expectStep.transitions)
      throw new Error('the exported scenario has no expected transitions');
    expectStep.transitions[1] = 'load-answered-paused';
    const dir = tempDir();
    const junit = join(dir, 'report.xml');
    const json = join(dir, 'report.json');
    const { code, stdout, stderr } = await runCli(
      'run',
      writeJson('changed.json', changed),
      '--junit',
      junit,
      '--json',
      json,
    );
    expect(code, stdout).toBe(1);
    expect(stdout).toMatch(/FAIL .*expect player-kitchen: .*no load-answered-paused transition/);
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^FAILED · .*1 failed.* · expectations: 0 of 1 met/);
    expect(stderr).toContain(`wrote ${junit}`);

    // Read back by a JUnit parser, as a CI report viewer would.
    const parsed = (await parse(readFileSync(junit, 'utf8'))) as TestSuites;
    const suite = parsed.testsuite?.[0] as TestSuite;
    expect(suite.name).toBe('503 storm during playback');
    expect(suite.tests).toBe(1);
    expect(suite.failures).toBe(1);
    const [testCase] = suite.testcase ?? [];
    expect(testCase?.name).toMatch(
      /^step \d+: expect player-kitchen: state \w+, (item \S+, )?transitions load-begins → load-answered-paused → background-exhausted, requests \d+: timePlayed → 503, timePlayed → 503 \(retry 1\), timePlayed → 503 \(retry 2\), …$/,
    );
    expect(testCase?.failure?.[0]?.message).toMatch(/no load-answered-paused transition/);

    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      passed: boolean;
      kind: string;
      steps: { status: string }[];
    };
    expect(report).toMatchObject({ passed: false, kind: 'bundle' });
    expect(report.steps.at(-1)?.status).toBe('failed');
  });

  it('runs a scenario file too, on a console of its own: JUnit lists each expectation, passed', async () => {
    const scenario = {
      name: 'A session on the Office player',
      steps: [
        { type: 'clock', speed: 0 },
        {
          type: 'command',
          method: 'POST',
          path: '/api/v1/groups/group-office/playbackSession:1',
          body: { appId: 'com.example.ci', appContext: 'cli' },
          save: { session: 'sessionId' },
        },
        { type: 'expect', playerId: 'player-office', state: 'PLAYBACK_STATE_IDLE' },
        { type: 'action', playerId: 'player-office', action: 'skipNext', expectError: true },
        { type: 'expect', playerId: 'player-office', state: 'IDLE' },
      ],
    };
    const junit = join(tempDir(), 'scenario.xml');
    const { code, stdout } = await runCli('run', writeJson('scenario.json', scenario), '--junit', junit);
    expect(code, stdout).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/: scenario "A session on the Office player": 5 steps$/);
    const suite = ((await parse(readFileSync(junit, 'utf8'))) as TestSuites).testsuite?.[0];
    expect(suite?.testcase?.map((c) => c.name)).toEqual([
      'step 3: expect player-office: state PLAYBACK_STATE_IDLE',
      'step 5: expect player-office: state IDLE',
    ]);
    expect(suite?.failures).toBe(0);
  });

  it.each([
    ['no file', [], /run needs the FILE/],
    ['two files', ['a.json', 'b.json'], /run takes one FILE/],
    [
      'an unknown option',
      ['x.json', '--junt', 'r.xml'],
      /^unknown option --junt: this command takes --junit, --json, --timeout, --allow-host$/m,
    ],
  ])('refuses %s with the usage and exit 2', async (_what, args, message) => {
    const { code, stderr } = await runCli('run', ...args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('usage: cloud-queue-console run FILE [--junit F] [--json F]');
  });

  it.each([
    [
      'a file that is not there',
      () => join(tempDir(), 'missing.json'),
      /cannot read .*missing\.json: there is no such file\n/,
    ],
    ['a file that is not JSON', () => writeJson('text.json', 'steps: nope'), /is not JSON/],
    [
      'JSON that is neither a bundle nor a scenario',
      () => writeJson('other.json', { items: [] }),
      /is neither a repro bundle .* nor a scenario/,
    ],
    ['a file of another format', () => writeJson('har.json', { format: 'har' }), /is a "har" file/],
    [
      'a scenario with a step the console does not know',
      () => writeJson('bad.json', { name: 'x', steps: [{ type: 'teleport' }] }),
      /cannot be run: 1 problem\n {2}\/steps\/0\/type: must be one of/,
    ],
    [
      'a scenario that uses a value no step saves (exit 1 at that step before)',
      () =>
        writeJson('unsaved.json', {
          name: 'x',
          steps: [
            { type: 'command', method: 'POST', path: '/api/v1/playbackSessions/${session}/playbackSession:1/suspend' },
          ],
        }),
      /cannot be run: \/steps\/0 uses \$\{session\}, which no step before it saves/,
    ],
    [
      // A bundle's rules beside a scenario's steps: taken without them, the run would pass without its fault.
      'a scenario with a field a scenario does not have',
      () =>
        writeJson('with-faults.json', {
          name: 'x',
          faults: [{ target: 'cloudQueue', kind: 'status', status: 500 }],
          steps: [{ type: 'clock', speed: 0 }],
        }),
      /cannot be run: 1 problem\n {2}\/faults: is not a field this takes/,
    ],
    [
      'a bundle that does not hold together',
      () => writeJson('bad-bundle.json', { ...bundle, queues: 'none' }),
      /cannot be run: .*\/queues/,
    ],
  ])('refuses %s with exit 2, saying what is wrong, and runs nothing', async (_what, file, message) => {
    const { code, stdout, stderr } = await runCli('run', file());
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).toBe('');
  });

  it('refuses a report path it cannot write before anything runs (exit 2)', async () => {
    const { code, stdout, stderr } = await runCli(
      'run',
      writeJson('storm.json', bundle),
      '--junit',
      join(tempDir(), 'no/such/dir/r.xml'),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/cannot write the report to .*r\.xml: its folder is not there\n/);
    expect(stdout).toBe('');
  });

  it('refuses a report over the bundle it runs, or two reports in one file, and leaves the bundle whole', async () => {
    const file = writeJson('kept.json', bundle);
    const before = readFileSync(file, 'utf8');
    const over = await runCli('run', file, '--json', file);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain(`--json ${file} is the file this command reads`);
    expect(readFileSync(file, 'utf8')).toBe(before);
    // The same file by an absolute and a relative path.
    const report = join(tempDir(), 'one.xml');
    const twice = await runCli('run', file, '--json', report, '--junit', relative(process.cwd(), report));
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/--junit .*one\.xml is the file --json names/);
    expect(twice.stdout).toBe('');
    expect(existsSync(report)).toBe(false);
  });
});

describe('cloud-queue-console', () => {
  it('answers --help for itself and for each command on stdout with exit 0', async () => {
    const top = await runCli('--help');
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/^usage: cloud-queue-console <command> \[options\] {3}\(alias: cqc\)/);
    for (const command of ['serve', 'run', 'check']) {
      const help = await runCli(command, '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^usage: cloud-queue-console ${command} `));
      expect(help.stdout).toContain('Exit codes: 0');
      // `help run` is `run --help` (outsider: it printed the program's help).
      expect(await runCli('help', command)).toEqual(help);
      expect((await runCli('help', `${command}x`)).code).toBe(2);
    }
  });

  it('refuses no command and an unknown one with exit 2, listing the commands', async () => {
    expect(await runCli()).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^no command given\nusage: cloud-queue-console/),
    });
    expect(await runCli('replay')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^unknown command "replay": the commands are serve, run, check/),
    });
  });

  it('tells its version', async () => {
    const { version } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(await runCli('--version')).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it("exits the process with the command's code (bin.ts, as built)", () => {
    const file = writeJson('storm.json', bundle);
    const bin = (...args: string[]) => spawnSync(process.execPath, [builtCli(), ...args], { encoding: 'utf8' });
    expect(bin('run', file).status).toBe(0);
    expect(bin('run', join(tempDir(), 'missing.json')).status).toBe(2);
  }, 60_000);
});
