/**
 * Where a report may go besides a plain file: a pipe (`--json >(jq .)`, a FIFO) or a device is
 * written into as it is, never replaced by a plain file (outsider: `/dev/full` became one, run as
 * root); a FIFO nobody reads is refused at once instead of waiting past `--timeout`; a link keeps
 * being a link, and the file it names gets the report.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../engine/testing/temp-dirs.js';
import { builtCli } from '../testing/serve-process.js';
import { runCli } from '../testing/cli.js';
import { claimOutputs } from './output.js';
import { UsageError } from './usage.js';

const tempDir = tempDirs('cqc-output-');
const quiet = { stdout: () => undefined, stderr: () => undefined };

/** A FIFO in a folder of its own (`mkfifo`: Node makes none). */
function fifo(): string {
  const path = join(tempDir(), 'report.fifo');
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  return path;
}

/** A scenario that passes on a fresh console: its office player idle. */
function idleScenario(folder: string): string {
  const path = join(folder, 'scenario.json');
  const steps = [
    { type: 'clock', speed: 0 },
    { type: 'expect', playerId: 'player-office', state: 'IDLE' },
  ];
  writeFileSync(path, JSON.stringify({ name: 'An idle player', steps }));
  return path;
}

describe('a report', () => {
  it('to a FIFO nothing reads is refused at once, as a bad command line', () => {
    const path = fifo();
    const started = performance.now();
    expect(() => claimOutputs({ json: path })).toThrow(UsageError);
    expect(() => claimOutputs({ json: path })).toThrow(/it is a pipe nothing reads \(start what reads it first\)/);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(statSync(path).isFIFO()).toBe(true);
  });

  it('to a FIFO that is read goes down it whole, and the FIFO stays one', async () => {
    const path = fifo();
    const reader = spawn('cat', [path]);
    let read = '';
    reader.stdout.on('data', (chunk: Buffer) => (read += chunk.toString('utf8')));
    const ended = new Promise((resolve) => reader.on('close', resolve));
    // Larger than a pipe's buffer: written through as the reader takes it.
    const report = JSON.stringify({ pad: 'p'.repeat(200_000) });
    const said: string[] = [];
    try {
      // The reader opens the FIFO when its process has started: until then the claim finds none.
      let reports: ReturnType<typeof claimOutputs> | undefined;
      for (let tries = 0; !reports; tries++) {
        try {
          reports = claimOutputs({ json: path });
        } catch (error) {
          if (!(error instanceof UsageError) || tries > 100) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      reports.write(path, report, { stdout: () => undefined, stderr: (text) => said.push(text) });
      await ended;
    } finally {
      // A failed claim or write leaves `cat` waiting on the FIFO for ever.
      reader.kill();
    }
    expect(read).toBe(report);
    expect(said).toEqual([`wrote ${path}\n`]);
    expect(statSync(path).isFIFO()).toBe(true);
  });

  it('to a FIFO whose reader takes nothing is given up once it has waited its stall, not for good (outsider)', async () => {
    const path = fifo();
    // Opens the FIFO to read, and never reads it.
    const reader = spawn('sh', ['-c', 'exec 3<"$1"; sleep 30', 'sh', path]);
    try {
      let reports: ReturnType<typeof claimOutputs> | undefined;
      for (let tries = 0; !reports; tries++) {
        try {
          reports = claimOutputs({ json: path }, [], 300);
        } catch (error) {
          if (!(error instanceof UsageError) || tries > 100) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      const started = performance.now();
      // Past what the pipe holds (64 KiB here), so the write has to wait for the reader.
      expect(() => reports.write(path, 'x'.repeat(1_000_000), quiet)).toThrow(
        new RegExp(
          `^cannot write the report to ${path}: its reader took [\\d,]+ of 1,000,000 bytes, then nothing for 0\\.3 s`,
        ),
      );
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      reader.kill();
    }
    expect(statSync(path).isFIFO()).toBe(true);
  });

  it('to a link is written to the file it names, and the link stays a link', () => {
    const folder = tempDir();
    const file = join(folder, 'target.json');
    writeFileSync(file, 'old');
    const link = join(folder, 'link.json');
    symlinkSync(file, link);
    claimOutputs({ json: link }).write(link, 'new', quiet);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe('new');
  });

  it('to a link to a file not there yet makes that file, and leaves the link a link (outsider)', () => {
    const folder = tempDir();
    const file = join(folder, 'later.json');
    const link = join(folder, 'dangling.json');
    symlinkSync(file, link);
    const reports = claimOutputs({ json: link });
    // Claimed without a trace: no empty file where the link points, the link still there.
    expect(existsSync(file)).toBe(false);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    reports.write(link, 'new', quiet);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('new');
  });

  it('to a device is written into it, never replaced by a file', () => {
    claimOutputs({ json: '/dev/null' }).write('/dev/null', '{"a":1}', quiet);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it('of run, given as its standard output (what `--json >(jq .)` names), is the report, exit 0', () => {
    const scenario = idleScenario(tempDir());
    // The command's stdout is a pipe to this test: /dev/stdout is that pipe.
    const run = spawnSync(process.execPath, [builtCli(), 'run', scenario, '--json', '/dev/stdout'], {
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('wrote /dev/stdout');
    const report = run.stdout.slice(run.stdout.indexOf('\n{') + 1);
    expect(JSON.parse(report)).toMatchObject({ passed: true, kind: 'scenario' });
  }, 60_000);

  it('of a run whose stdout reader has gone (`| true`) is written, and the run exits by its verdict (outsider: EPIPE)', () => {
    const folder = tempDir();
    const scenario = idleScenario(folder);
    const json = join(folder, 'report.json');
    // `true` has exited long before the console has started: every line of the run meets EPIPE.
    const run = spawnSync(
      'bash',
      [
        '-c',
        `"${process.execPath}" "${builtCli()}" run "${scenario}" --json "${json}" | true; exit "\${PIPESTATUS[0]}"`,
      ],
      {
        encoding: 'utf8',
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/EPIPE|Error/);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({ passed: true });
  }, 60_000);

  it('of fleet over the --fault file it reads is refused, and the rules are kept', async () => {
    const folder = tempDir();
    const rules = join(folder, 'rules.json');
    const text = JSON.stringify([
      { target: 'cloudQueue', endpoint: 'itemWindow', action: { type: 'status', status: 503 } },
    ]);
    writeFileSync(rules, text);
    const { code, stderr } = await runCli(
      'fleet',
      '--players',
      '1',
      '--duration',
      '1s',
      '--fault',
      rules,
      '--json',
      rules,
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/--json .*rules\.json is the file this command reads/);
    expect(readFileSync(rules, 'utf8')).toBe(text);
  });
});
