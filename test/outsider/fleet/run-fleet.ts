/**
 * Runs the built command line (`out/cli/bin.js`, what `npm run build` writes) as a user would,
 * with a hard deadline, and measures what a user would feel: the exit code, the wall time and the
 * process's peak resident memory (VmHWM from /proc, sampled while it runs).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The built CLI; `OUTSIDER_FLEET_BIN` points at another build (say, one copied aside while others rebuild `out/`). */
export const BIN = process.env.OUTSIDER_FLEET_BIN ?? resolve(import.meta.dirname, '../../../out/cli/bin.js');

export interface FleetRun {
  /** Exit code, or null when the deadline killed it. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly wallMs: number;
  /**
   * From the fleet's first line on stderr (it has started playing) to its exit: the part of the
   * wall time the run's duration bounds, without Node's start-up on a loaded machine.
   */
  readonly playedMs: number | null;
  /** Peak RSS in MB (null where /proc is not there). */
  readonly peakRssMb: number | null;
  /** The `--json` report, when the run wrote one. */
  readonly report: FleetReport | undefined;
}

/** The parts of the `--json` report (docs/fleet.md, Reports) these tests read. */
export interface FleetReport {
  players: { joined: number; byState: Record<string, number> };
  totals: { requests: number; errors: number; violations: number; transportErrors: number; errorRate: number };
  endpoints: {
    endpoint: string;
    reason: string | null;
    requests: number;
    statuses: Record<string, number>;
    transportErrors: number;
  }[];
  violations: { rule: string; count: number; message: string }[];
  thresholds: { expression: string; ok: boolean; actual: number }[];
}

function peakRss(pid: number): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * `fleet ARGS… --json <tmp>`, killed at `deadlineMs`. The deadline is the test's bound, not the
 * fleet's: a run that needs it has already failed the test that set it.
 */
export async function runFleet(args: readonly string[], deadlineMs: number): Promise<FleetRun> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npm run build\` first`);
  const dir = mkdtempSync(join(tmpdir(), 'outsider-fleet-'));
  const jsonPath = join(dir, 'report.json');
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, 'fleet', ...args, '--json', jsonPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  let firstLineAt: number | null = null;
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    if (firstLineAt === null && /^fleet /m.test(stderr + text)) firstLineAt = Date.now();
    stderr += text;
  });
  let peak: number | null = null;
  const sample = setInterval(() => {
    const now = child.pid === undefined ? null : peakRss(child.pid);
    if (now !== null) peak = Math.max(peak ?? 0, now);
  }, 100);
  const deadline = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  const code = await new Promise<number | null>((done) => child.on('close', (exit) => done(exit)));
  const endedAt = Date.now();
  const wallMs = endedAt - started;
  const playedMs = firstLineAt === null ? null : endedAt - firstLineAt;
  clearInterval(sample);
  clearTimeout(deadline);
  let report: FleetReport | undefined;
  try {
    report = JSON.parse(readFileSync(jsonPath, 'utf8')) as FleetReport;
  } catch {
    report = undefined;
  }
  rmSync(dir, { recursive: true, force: true });
  return { code, stdout, stderr, wallMs, playedMs, peakRssMb: peak, report };
}

/** A one-line account of a run, for failure messages. */
export function describeRun(run: FleetRun): string {
  const rss = run.peakRssMb === null ? 'n/a' : `${run.peakRssMb.toFixed(0)} MB`;
  return `exit ${run.code}, ${run.wallMs} ms (${run.playedMs ?? '–'} ms from its first line), peak RSS ${rss}\nstdout:\n${run.stdout}\nstderr (tail):\n${run.stderr.slice(-1500)}`;
}
