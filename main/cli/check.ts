/**
 * `check BASE_URL [--authorization V] [--junit F] [--json F] [--html F]` (docs/contract/console.md §1, §8): the
 * conformance suite against an integrator's cloud queue server, run by a fresh in-memory console.
 * Each case is printed as it settles, then a summary. Exit 0 with no failed case (warnings
 * allowed), 1 with any, 2 when the command line is bad or the server cannot be reached at all.
 */
import {
  DEFAULT_CONFORMANCE_TIMEOUT_MS,
  MAX_CONFORMANCE_TIMEOUT_MS,
  type ConformanceCaseResult,
  type ConformanceOutcome,
  type ConformanceRun,
} from '../engine/api/conformance-types.js';
import { TRAFFIC_RETENTION_BYTES_MIN } from '../engine/api/traffic-types.js';
import { createEngine, type Engine } from '../engine/index.js';
import { createLogger } from '../engine/log.js';
import type { CliIo } from './io.js';
import { terminalSafe } from '../engine/conformance/reports/text.js';
import { BASE_URL_EXAMPLE } from '../engine/api/conformance-text.js';
import { isReplay, REPLAY_USAGE, replayCommand } from './check-replay.js';
import { baseUrlQueryProblem, unparsedUrlWhy } from '../engine/api/base-url.js';
import { claimOutputs, quietLogger } from './output.js';
import { startRefused } from './check-start.js';
import { packageVersion } from './version.js';
import { checkAuthorization, EXIT, parseCommandLine, UsageError, type ExitCode } from './usage.js';

import { CHECK_USAGE } from './usages.js';

export { CHECK_USAGE };

export const CHECK_HELP = `${CHECK_USAGE}

Plays the platform's player against your cloud queue server at BASE_URL (the queueBaseUrl a
loadCloudQueue would carry; the player appends context, itemWindow, version, timePlayed) and says,
rule by rule, where it breaks the contract. Each case is printed as it settles, then a summary.

  --authorization V   the Authorization header the player sends (e.g. "Bearer abc…")
  --timeout S         end the whole run after S seconds (1 to 3600, default 120): the case running then
                      fails, the rest are skipped, and the reports are still written
  --junit F           also write a JUnit XML report to F (one test case per case)
  --json F            also write the whole result to F as JSON
  --html F            also write a self-contained HTML report to F

The reports carry each failing or warning case's exchanges and a curl that repeats it. Then
\`check --replay REPORT.json [--authorization V] [--timeout S]\` runs the failing and warning
cases of a --json report again against its server: FIXED or STILL FAILING per case, exit 0 only
when every failing case is fixed.

Answers over 1 MB fail their case, naming the size. BASE_URL looks like
https://cloudqueue.example.com/queues/{queueId}/v2.3/: the queueBaseUrl your loadCloudQueue sends.

Exit codes: 0 no case failed (warnings allowed), 1 a case failed (or the deadline passed), 2 a bad
command line, a server that cannot be reached at all, or a BASE_URL with no queue at it.`;

export interface CheckArgs {
  baseUrl: URL;
  authorization?: string;
  /** The whole run's deadline, ms (`--timeout` seconds; default DEFAULT_CONFORMANCE_TIMEOUT_MS). */
  timeoutMs: number;
  junit?: string;
  json?: string;
  html?: string;
}

export function parseCheckArgs(argv: string[]): CheckArgs {
  const parsed = parseCommandLine(
    argv,
    {
      authorization: { type: 'string' },
      timeout: { type: 'string' },
      junit: { type: 'string' },
      json: { type: 'string' },
      html: { type: 'string' },
    },
    CHECK_HELP,
  );
  const [raw, ...extra] = parsed.positionals;
  if (!raw) throw new UsageError('check needs the BASE_URL of a cloud queue server (http or https)');
  if (extra.length) throw new UsageError(`check takes one BASE_URL, got also: ${extra.join(' ')}`);
  let baseUrl: URL;
  try {
    baseUrl = new URL(raw);
  } catch {
    throw new UsageError(`BASE_URL must be an absolute http(s) URL, got ${raw}${unparsedUrlWhy(raw)}`);
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:')
    throw new UsageError(`BASE_URL must be http or https, got ${baseUrl.protocol}`);
  if (baseUrl.username || baseUrl.password)
    throw new UsageError('BASE_URL must not carry a user name or password: give credentials with --authorization');
  const queryProblem = baseUrlQueryProblem(baseUrl);
  if (queryProblem) throw new UsageError(queryProblem);
  const { authorization, timeout, junit, json, html } = parsed.values;
  checkAuthorization(authorization);
  const timeoutMs = timeout === undefined ? DEFAULT_CONFORMANCE_TIMEOUT_MS : timeoutOf(timeout);
  return {
    baseUrl,
    ...(authorization ? { authorization } : {}),
    timeoutMs,
    ...(junit ? { junit } : {}),
    ...(json ? { json } : {}),
    ...(html ? { html } : {}),
  };
}

/** `--timeout` in seconds (fractions allowed), as the run's `timeoutMs`. */
export function timeoutOf(text: string): number {
  const seconds = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : NaN;
  const max = MAX_CONFORMANCE_TIMEOUT_MS / 1_000;
  if (!(seconds >= 1 && seconds <= max))
    throw new UsageError(`--timeout must be a number of seconds from 1 to ${max.toLocaleString('en-US')}, got ${text}`);
  return Math.round(seconds * 1_000);
}

/**
 * The engine a `check` (or its replay) runs on: in memory, quiet but for what goes wrong (the
 * cases are the output), and with the smallest traffic log. The reports hold a case's evidence;
 * the log is read by nobody once the process ends, and at its defaults it would hold up to 256 MB
 * of a long play's traffic in memory, against the 300 MB the whole process may take
 * (docs/contract/console.md §8).
 */
export async function checkEngine(io: CliIo): Promise<Engine> {
  const engine = await createEngine({
    dataDir: null,
    port: 0,
    log: quietLogger(createLogger(io.stderr)),
    version: packageVersion(),
  });
  await engine.commands.run('traffic.configure', {
    retention: CHECK_TRAFFIC_ENTRIES,
    retentionBytes: TRAFFIC_RETENTION_BYTES_MIN,
  });
  return engine;
}

/** Entries the check's traffic log keeps: about one run's answers before the play. */
const CHECK_TRAFFIC_ENTRIES = 1_000;

export async function checkCommand(argv: string[], io: CliIo): Promise<ExitCode> {
  if (isReplay(argv))
    return replayCommand(argv, io).catch((error: unknown) => {
      // A replay refused is told its own form, not `check BASE_URL`'s (audit).
      if (error instanceof UsageError && error.usage === undefined)
        throw new UsageError(error.message, { usage: REPLAY_USAGE });
      throw error;
    });
  const args = parseCheckArgs(argv);
  const outputs = { json: args.json, junit: args.junit, html: args.html } as const;
  const reports = claimOutputs(outputs);
  const engine = await checkEngine(io);
  try {
    const total = (await engine.commands.run('conformance.cases')).length;
    // Said once the run has started: a BASE_URL the engine refuses is refused before any banner.
    const run = await runCheck(
      engine,
      args,
      () =>
        io.stdout(
          `check ${args.baseUrl.href}: ${total} cases${args.authorization ? ', with the Authorization given' : ''}\n`,
        ),
      (result, index) => io.stdout(caseLine(result, index, total)),
    );
    for (const [format, path] of Object.entries(outputs)) {
      if (path)
        reports.write(
          path,
          (await engine.commands.run('conformance.runs.export', { id: run.id, format: format as keyof typeof outputs }))
            .content,
          io,
        );
    }
    if (run.error?.kind === 'unreachable') {
      io.stderr(`${terminalSafe(run.error.message)}\n`);
      // A server nobody answers at may be a wrong URL as well as one down: say what one looks like.
      if (!run.error.message.includes(BASE_URL_EXAMPLE))
        io.stderr(`BASE_URL is the queueBaseUrl your loadCloudQueue sends, such as ${BASE_URL_EXAMPLE}\n`);
      return EXIT.usage;
    }
    io.stdout(`${summaryLine(run)}\n`);
    return run.status === 'passed' ? EXIT.ok : EXIT.failed;
  } finally {
    await engine.close();
  }
}

/** Starts the run and waits for its end, handing each case on as it settles. */
async function runCheck(
  engine: Engine,
  args: CheckArgs,
  onStarted: () => void,
  onCase: (result: ConformanceCaseResult, index: number) => void,
): Promise<ConformanceRun> {
  let runId: string | null = null;
  let settled = 0;
  let ended!: () => void;
  const end = new Promise<void>((resolve) => (ended = resolve));
  const stop = engine.events.on('conformance.progress', (progress) => {
    if (progress.runId !== runId) return;
    if (progress.settled) onCase(progress.settled, settled++);
    else ended();
  });
  try {
    ({ id: runId } = await engine.commands
      .run('conformance.runs.start', {
        baseUrl: args.baseUrl.href,
        timeoutMs: args.timeoutMs,
        ...(args.authorization ? { authorization: args.authorization } : {}),
      })
      .catch((error: unknown) => {
        throw startRefused(error, 'BASE_URL');
      }));
    onStarted();
    await end;
    return await engine.commands.run('conformance.runs.get', { id: runId });
  } finally {
    stop();
  }
}

const MARK: Record<ConformanceOutcome, string> = { pass: 'pass', fail: 'FAIL', warn: 'warn', skip: 'skip' };

/** `FAIL   5/17 item-window.unknown-item: An itemId the queue does not have is answered 404 — GET …: expected 404, got 200 …` */
export function caseLine(result: ConformanceCaseResult, index: number, total: number): string {
  const position = `${index + 1}/${total}`.padStart(String(total).length * 2 + 1);
  // The server's words are in the messages (and may be in ids): a terminal acts on their escapes.
  return `${MARK[result.outcome]}  ${position} ${terminalSafe(result.id)}: ${terminalSafe(result.title)} — ${terminalSafe(result.message)}\n`;
}

export function summaryLine(run: ConformanceRun): string {
  const { pass, warn, fail, skip, total } = run.summary;
  const took = run.finishedAt === null ? '' : ` · ${((run.finishedAt - run.startedAt) / 1000).toFixed(1)} s`;
  return `${run.status === 'passed' ? 'PASSED' : 'FAILED'} · ${pass} passed, ${warn} warned, ${fail} failed, ${skip} skipped of ${total} cases${took}${run.error ? ` · ${terminalSafe(run.error.message)}` : ''}`;
}
