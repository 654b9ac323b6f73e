/**
 * `check --replay REPORT.json [--authorization V] [--timeout S]` (docs/contract/console.md §1,
 * §8): the failing and warning cases of a JSON report that `check --json` wrote, run again against
 * the server it checked, and each said FIXED or STILL FAILING (a warning: STILL WARNING). A case is re-judged by its own rule:
 * its requests are sent again (each with `X-Conformance-Case`), with the cases it builds on, as a
 * whole run would. The report holds the Authorization masked, so it is given again. Exit 0 only
 * when every failing case is fixed, 1 when one is not (a warning left is said, and fails nothing,
 * as in `check`), 2 for a bad command line or report, or a server that cannot be reached at all.
 */
import { startRefused } from './check-start.js';
import {
  DEFAULT_CONFORMANCE_TIMEOUT_MS,
  type ConformanceCaseResult,
  type ConformanceRun,
} from '../engine/api/conformance-types.js';
import { madeUpIn } from '../engine/conformance/made-up.js';
import { CONFORMANCE_REPORT_KIND } from '../engine/conformance/reports/export.js';
import { readingOrder } from '../engine/conformance/reports/order.js';
import { caseInfos, SUITE } from '../engine/conformance/suite.js';
import { terminalSafe } from '../engine/conformance/reports/text.js';
import type { Engine } from '../engine/index.js';
import { checkEngine, timeoutOf } from './check.js';
import type { CliIo } from './io.js';
import { readJsonFile, STREAM_READ_MS } from './json-file.js';
import { checkAuthorization, EXIT, parseCommandLine, UsageError, type ExitCode } from './usage.js';

export const REPLAY_USAGE = 'usage: cloud-queue-console check --replay REPORT.json [--authorization V] [--timeout S]';

export const REPLAY_HELP = `${REPLAY_USAGE}

Runs the failing and warning cases of REPORT.json (written by check --json) again against the
server it checked, each with the cases it builds on, and prints FIXED or STILL FAILING per case
(STILL WARNING for a warning that stays).

  --authorization V   the Authorization to send: the report holds it masked, so give it again
  --timeout S         end the replay after S seconds (default 120), as check does

Exit codes: 0 every failing case is fixed (warnings allowed, as in check), 1 one is not, 2 a bad
command line or report, or a server that cannot be reached at all.`;

/** Whether `check`'s command line asks for a replay. */
export function isReplay(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === '--replay' || arg.startsWith('--replay='));
}

interface ReplayArgs {
  report: string;
  authorization?: string;
  timeoutMs: number;
}

function parseReplayArgs(argv: string[]): ReplayArgs {
  const parsed = parseCommandLine(
    argv,
    { replay: { type: 'string' }, authorization: { type: 'string' }, timeout: { type: 'string' } },
    REPLAY_HELP,
  );
  const { replay, authorization, timeout } = parsed.values;
  if (!replay) throw new UsageError('--replay needs the JSON report of an earlier check (check --json F)');
  if (parsed.positionals.length)
    throw new UsageError(
      `check --replay takes its BASE_URL from the report, got also: ${parsed.positionals.join(' ')}`,
    );
  checkAuthorization(authorization);
  return {
    report: replay,
    ...(authorization ? { authorization } : {}),
    timeoutMs: timeout === undefined ? DEFAULT_CONFORMANCE_TIMEOUT_MS : timeoutOf(timeout),
  };
}

/** The report as `check --json` wrote it, or what is wrong with it (exit 2). */
/** `streamReadMs`: how long a pipe may take to give the report (the replay's --timeout, at most 30 s). */
export function readReport(path: string, streamReadMs = STREAM_READ_MS): ConformanceRun {
  const report = readJsonFile(path, { what: 'the report', streamReadMs });
  const run = report as Partial<ConformanceRun> & { kind?: unknown };
  if (typeof report !== 'object' || report === null || run.kind !== CONFORMANCE_REPORT_KIND) {
    throw new UsageError(
      `${path} is not a report of check --json (its "kind" is not ${JSON.stringify(CONFORMANCE_REPORT_KIND)})`,
    );
  }
  if (typeof run.baseUrl !== 'string' || !URL.canParse(run.baseUrl) || !Array.isArray(run.cases))
    throw new UsageError(`the report ${path} has no baseUrl or no cases`);
  const error = run.error as unknown;
  if (error != null && typeof (error as { message?: unknown }).message !== 'string')
    throw new UsageError(`the report ${path} has an error without a message`);
  for (const result of run.cases as unknown[]) {
    const { id, outcome } = (result ?? {}) as Partial<ConformanceCaseResult>;
    if (typeof id !== 'string' || !['pass', 'fail', 'warn', 'skip'].includes(outcome as string))
      throw new UsageError(`the report ${path} has a case without an id or an outcome`);
  }
  return run as ConformanceRun;
}

export async function replayCommand(argv: string[], io: CliIo): Promise<ExitCode> {
  const args = parseReplayArgs(argv);
  // A pipe is waited on no longer than the replay's own --timeout (outsider: 30 s with --timeout 3).
  const report = readReport(args.report, Math.min(STREAM_READ_MS, args.timeoutMs));
  const failed = report.error !== null || report.cases.some((result) => result.outcome === 'fail');
  const replayed = readingOrder([
    // A failed run's skipped cases were not checked (their needs failed, or the deadline came first).
    ...report.cases.filter(
      (result) => result.outcome === 'fail' || result.outcome === 'warn' || (failed && result.outcome === 'skip'),
    ),
    ...neverRan(report),
  ]);
  // Never said with credentials in it: a user name and password are no part of a base URL (the
  // engine refuses them), and the banner printed them (outsider).
  const parsed = URL.canParse(report.baseUrl) ? new URL(report.baseUrl) : null;
  if (parsed && (parsed.username || parsed.password))
    throw new UsageError(
      `the report's baseUrl carries a user name or password, which a base URL must not: give credentials with --authorization`,
    );
  const baseUrl = terminalSafe(report.baseUrl);
  if (replayed.length === 0) {
    io.stdout(`replay ${args.report}: no case failed or warned against ${baseUrl}: nothing to replay\n`);
    return EXIT.ok;
  }
  if (report.baseUrl.includes('•••'))
    throw new UsageError(
      `the report's base URL has a masked secret (${baseUrl}): it cannot be replayed from the report`,
    );
  if (report.authorization !== null && args.authorization === undefined) {
    throw new UsageError(
      `the checked requests carried an Authorization (${terminalSafe(report.authorization)}), which the report holds masked: give it again with --authorization`,
    );
  }
  const engine = await checkEngine(io);
  try {
    // Said once the run has started: a report whose base URL the engine refuses says nothing else.
    const run = await replayRun(engine, report.baseUrl, replayed, args, () =>
      io.stdout(
        `replay ${args.report}: ${replayed.length} case${replayed.length === 1 ? '' : 's'} against ${baseUrl}\n`,
      ),
    );
    if (run.error?.kind === 'unreachable') {
      io.stderr(`${terminalSafe(run.error.message)}\n`);
      return EXIT.usage;
    }
    const failedNow = new Set(run.cases.filter((result) => result.outcome === 'fail').map((result) => result.id));
    let fixed = 0;
    let failing = 0;
    let gone = 0;
    let skipped = 0;
    let skippedFailing = 0;
    // Warnings that fail now: a verdict worse than the report's, which check would exit 1 on (review).
    let worse = 0;
    for (const before of replayed) {
      const now = run.cases.find((result) => result.id === before.id);
      const isFixed =
        now !== undefined && (now.outcome === 'pass' || (before.outcome !== 'warn' && now.outcome === 'warn'));
      if (before.outcome === 'fail') {
        failing++;
        if (isFixed) fixed++;
      } else if (before.outcome === 'skip') {
        skipped++;
        // Skipped again (a skip the case makes by design, such as no Authorization to get wrong) is no
        // failure; skipped because a case it builds on failed now, it is left unrun.
        if (now === undefined || now.outcome === 'fail' || (now.outcome === 'skip' && needsFailed(now.id, failedNow)))
          skippedFailing++;
      } else if (isFixed) gone++;
      else if (now?.outcome === 'fail') worse++;
      // A pass keeps no exchanges: what it asked is read from its traffic, to tell a fix from a
      // request no longer asked (review).
      const askedNow = isFixed && now ? await askedBy(engine, now.trafficIds) : undefined;
      io.stdout(replayLine(before, now, isFixed, askedNow));
    }
    // A case the replayed ones build on, run again with them, that fails now: a defect the fix
    // brought in, which would otherwise show only inside a skip's reason (audit).
    const beneath = run.cases.filter(
      (now) => failedNow.has(now.id) && !replayed.some((before) => before.id === now.id),
    );
    for (const now of beneath)
      io.stdout(
        `${'NOW FAILING'.padEnd(14)} ${terminalSafe(now.id)}: ${terminalSafe(now.title)} — ${terminalSafe(now.message)} (a case the replayed ones build on)\n`,
      );
    const all = fixed === failing && skippedFailing === 0 && beneath.length === 0 && worse === 0;
    const warnings = replayed.length - failing - skipped;
    const counts = [
      failing ? `${fixed} of ${failing} failing case${failing === 1 ? '' : 's'} fixed` : '',
      skipped ? `${skippedFailing} of ${skipped} skipped case${skipped === 1 ? '' : 's'} now failing or not run` : '',
      warnings ? `${gone} of ${warnings} warning${warnings === 1 ? '' : 's'} gone` : '',
      worse ? `${worse} warning${worse === 1 ? '' : 's'} now failing` : '',
      beneath.length ? `${beneath.length} case${beneath.length === 1 ? '' : 's'} they build on now failing` : '',
    ]
      .filter(Boolean)
      .join(', ');
    // A replay asks less than the check did: a defect that shows only after the server has served
    // more (a leak, a rate limit) read FIXED on a server restarted unchanged (audit Y15).
    const partly =
      all && fixed + gone > 0 && run.cases.length < report.cases.length
        ? ` · judged with ${run.cases.length} of the ${report.cases.length} cases the check ran: a defect that shows only after more requests (a leak, a rate limit) passes here; a whole check tells`
        : '';
    // Only warnings replayed: nothing failed to be fixed, and "FIXED · 0 of 2 warnings gone" read as
    // if something were (audit Z6). Passed, as check says a run with warnings only.
    const word = !all ? 'STILL FAILING' : failing + skipped === 0 ? 'PASSED' : 'FIXED';
    io.stdout(`${word} · ${counts}${run.error ? ` · ${terminalSafe(run.error.message)}` : ''}${partly}\n`);
    return all ? EXIT.ok : EXIT.failed;
  } finally {
    await engine.close();
  }
}

/**
 * The cases a run that ended early (the server unreachable, the console closed) never settled:
 * failing, since nothing checked them. Without them a report of an unreachable server, which
 * holds no case, would replay as "nothing to replay" and exit 0.
 */
function neverRan(report: ConformanceRun): ConformanceCaseResult[] {
  if (!report.error) return [];
  const settled = new Set(report.cases.map((result) => result.id));
  return caseInfos()
    .filter((info) => !settled.has(info.id))
    .map((info) => ({
      ...info,
      outcome: 'fail',
      message: `did not run: ${report.error!.message}`,
      trafficIds: [],
      durationMs: 0,
    }));
}

/** Runs the replayed cases (the engine adds those they build on) and waits for the run's end. */
async function replayRun(
  engine: Engine,
  baseUrl: string,
  replayed: readonly ConformanceCaseResult[],
  args: ReplayArgs,
  onStarted: () => void,
): Promise<ConformanceRun> {
  let runId: string | null = null;
  let ended!: () => void;
  const end = new Promise<void>((resolve) => (ended = resolve));
  const stop = engine.events.on('conformance.progress', (progress) => {
    if (progress.runId === runId && progress.settled === null) ended();
  });
  try {
    ({ id: runId } = await engine.commands
      .run('conformance.runs.start', {
        baseUrl,
        cases: replayed.map((result) => result.id),
        timeoutMs: args.timeoutMs,
        ...(args.authorization ? { authorization: args.authorization } : {}),
        ...madeUpOf(replayed),
      })
      .catch((error: unknown) => {
        throw startRefused(error, "the report's baseUrl");
      }));
    onStarted();
    if ((await engine.commands.run('conformance.runs.get', { id: runId })).status === 'running') await end;
    return await engine.commands.run('conformance.runs.get', { id: runId });
  } finally {
    stop();
  }
}

/**
 * The values the replayed cases made up (an itemId, a token), from their recorded requests: the
 * replay sends them again, so the requests it names are the ones sent before.
 */
function madeUpOf(replayed: readonly ConformanceCaseResult[]): { madeUp?: string[] } {
  const texts = replayed.flatMap((result) =>
    (result.exchanges ?? []).flatMap((exchange) => [exchange.url, ...Object.values(exchange.requestHeaders)]),
  );
  const madeUp = madeUpIn(texts).slice(0, 20);
  return madeUp.length ? { madeUp } : {};
}

/** Whether a case that `id` builds on, however deep, is among the `failed`. */
function needsFailed(id: string, failed: ReadonlySet<string>): boolean {
  const seen = new Set<string>();
  const visit = (at: string): boolean =>
    (SUITE.find((unit) => unit.id === at)?.needs ?? []).some(
      (need) => !seen.has(need) && (seen.add(need), failed.has(need) || visit(need)),
    );
  return visit(id);
}

/** A case the report had skipped, run now: what it came to. */
function skipMark(now: ConformanceCaseResult | undefined): string {
  if (now === undefined) return 'NOT RUN';
  return { pass: 'NOW PASSES', warn: 'NOW WARNS', fail: 'NOW FAILING', skip: 'STILL SKIPPED' }[now.outcome];
}

/**
 * `FIXED          item-window.unknown-item: … — GET …: 404, as for an item that does not exist`,
 * then, for a case still failing (or warning), its decisive request then and now.
 */
/** `METHOD url` of each traffic entry a case rests on, as a report's exchanges say them. */
async function askedBy(engine: Engine, trafficIds: readonly number[]): Promise<string[]> {
  const asked: string[] = [];
  for (const id of trafficIds.slice(0, 200)) {
    const entry = await engine.commands.run('traffic.get', { id }).catch(() => null);
    if (entry) asked.push(`${entry.method} ${entry.url}`);
  }
  return asked;
}

/**
 * `askedNow`: what a fixed case asked in the replay (`METHOD url` each), when it is known: a FIXED
 * whose failing request is not among them names both.
 */
export function replayLine(
  before: ConformanceCaseResult,
  now: ConformanceCaseResult | undefined,
  fixed: boolean,
  askedNow?: readonly string[],
): string {
  const said = now ? now.message : 'the replay ended before this case ran';
  const mark =
    before.outcome === 'skip'
      ? skipMark(now)
      : fixed
        ? // Failing then, a warning now: fixed (a warning fails nothing), and the line says it warns.
          before.outcome === 'fail' && now?.outcome === 'warn'
          ? 'FIXED, WARNS'
          : 'FIXED'
        : now?.outcome === 'skip'
          ? // Not judged again (a case it builds on failed now): not "still failing" (audit).
            'NOT JUDGED'
          : before.outcome === 'warn'
            ? now?.outcome === 'fail'
              ? 'NOW FAILING'
              : 'STILL WARNING'
            : 'STILL FAILING';
  const head = `${mark.padEnd(14)} ${terminalSafe(before.id)}: ${terminalSafe(before.title)} — ${terminalSafe(said)}\n`;
  const was = before.exchanges?.[0];
  const is = now?.exchanges?.[0];
  if (!was) return head;
  const status = (exchange: typeof was) => (exchange.status === null ? 'no answer' : String(exchange.status));
  const request = (exchange: typeof was) => terminalSafe(`${exchange.method} ${exchange.url}`);
  const indent = ' '.repeat(15);
  if (fixed) {
    // Fixed where it failed, or fixed on other requests: a FIXED that never asked the failing
    // request again (the replay lost its itemId) read as a fix (audit). The line says so.
    const asked = askedNow ?? (now?.exchanges ?? []).map((exchange) => `${exchange.method} ${exchange.url}`);
    const line = `${was.method} ${was.url}`;
    if (asked.length === 0 || asked.includes(line)) return head;
    const more = asked.length > 1 ? `, and ${asked.length - 1} more` : '';
    return `${head}${indent}was ${request(was)}: ${status(was)}\n${indent}not asked again: it asked ${terminalSafe(asked[0]!)}${more}\n`;
  }
  if (!is || request(is) === request(was))
    return `${head}${indent}${request(was)}: was ${status(was)}${is ? `, now ${status(is)}` : ''}\n`;
  // The case now turns on another request (the server's answers changed what it asks): both, each with its own answer.
  return `${head}${indent}was ${request(was)}: ${status(was)}\n${indent}now ${request(is)}: ${status(is)}\n`;
}
