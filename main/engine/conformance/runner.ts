/**
 * Runs the suite's cases one after another against one server and hands each verdict on as it
 * settles. A case whose needs failed or were skipped is skipped with the reason. A server that
 * answers neither GET /context nor GET /itemWindow at all (no connection, no answer in 10 s), or
 * a base URL with nothing at either, ends the run before any case settles, with that one message
 * (docs/contract/console.md §8); so does one that answered nothing before the deadline passed.
 * When the run's deadline passes, the case running fails saying so and every case after it is
 * skipped: a run ends in bounded time whatever the server does.
 */
import type { ConformanceCaseInfo, ConformanceOutcome } from '../api/conformance-types.js';
import { messageOf } from '../api/errors.js';
import { fail, skip, type CaseContext, type ConformanceCase, type Verdict } from './case.js';
import { isWindow, KEPT_WINDOWS, newFacts, windowOf } from './facts.js';
import { slowServerNote, type Heard } from './heard.js';
import { MadeUp } from './made-up.js';
import { noQueueBecause, silentUntil } from './no-queue.js';
import { retained, retainedView } from './retained.js';
import type { Answer, CheckedServer } from './server.js';
import { SUITE } from './suite.js';

export interface SettledCase extends ConformanceCaseInfo {
  outcome: ConformanceOutcome;
  message: string;
  /** The answers the verdict rests on, oldest first. */
  evidence: Answer[];
  durationMs: number;
}

export type SuiteResult = { unreachable: string } | { cases: SettledCase[] } | { stopped: true; cases: SettledCase[] };

export interface SuiteRunOptions {
  /** Builds the server the cases talk to, reporting each answer to `onAnswer`. */
  server: (onAnswer: (answer: Answer) => void) => CheckedServer;
  /** Wall ms. */
  now(): number;
  onSettled?: (settled: SettledCase) => void;
  /** Checked between cases: an engine that closes stops its runs. */
  signal?: AbortSignal;
  /**
   * Fires when the run's deadline passes (its reason says which, as an Error: "the run's deadline
   * of 120 s passed"); whoever owns it also aborts the requests in flight.
   */
  deadline?: AbortSignal;
  /** Wall ms at which `deadline` fires, for the cases that spend what is left of the run. */
  deadlineAt?: number;
  cases?: readonly ConformanceCase[];
  /** Values an earlier run made up, made up again the same (`made-up.ts`): a replay re-sends its requests. */
  madeUp?: readonly string[];
}

/**
 * A case's own answers kept as its evidence when its verdict names none, the newest of them: the
 * cases that make thousands (the walk, the play) name theirs.
 */
const KEPT_DURING = 2_000;

/**
 * Items of all the windows kept in `facts.windows`, at most: a thousand windows of the walk's 100,
 * and well under the check's heap whatever the windows hold (a window keeps MAX_KEPT_ITEMS).
 */
const KEPT_WINDOW_ITEMS = 100_000;

export async function runSuite(options: SuiteRunOptions): Promise<SuiteResult> {
  const cases = options.cases ?? SUITE;
  const facts = newFacts();
  let during: Answer[] = [];
  // Items of the windows kept in `facts.windows`, against KEPT_WINDOW_ITEMS.
  let keptItems = 0;
  const server = options.server((answer) => {
    // The case that asked reads the answer whole; the run keeps what later cases and evidence read.
    const kept = retained(answer);
    if (during.length === KEPT_DURING) during.splice(0, KEPT_DURING / 2);
    during.push(kept);
    facts.heard.add(kept);
    if (kept.exchange.endpoint === 'version') facts.trail.versions.poll(kept);
    const view = windowOf(answer);
    if (!isWindow(view)) return;
    const keptView = retainedView(view);
    facts.identities.add(keptView);
    facts.sightings.add(keptView);
    facts.trail.ends.add(keptView);
    facts.trail.versions.window(keptView);
    if (facts.windows.length < KEPT_WINDOWS && keptItems + keptView.items.length <= KEPT_WINDOW_ITEMS) {
      keptItems += keptView.items.length;
      facts.windows.push(keptView);
    }
  });
  const context: CaseContext = {
    server,
    facts,
    now: options.now,
    madeUp: new MadeUp(options.madeUp),
    ...(options.deadlineAt === undefined ? {} : { deadlineAt: options.deadlineAt }),
  };
  const settled: SettledCase[] = [];
  const outcomes = new Map<string, ConformanceOutcome>();

  // Whether the server was asked whether it is there: after the first case that sent a request. A
  // replay's first case may send none (base-url.reachable reads the URL): asked after it, a server
  // gone since the report failed its cases one by one, exit 1, where "cannot reach" is exit 2 (audit).
  let probed = false;
  for (const unit of cases) {
    if (options.signal?.aborted) return { stopped: true, cases: settled };
    during = [];
    const started = options.now();
    const { deadline } = options;
    const verdict = deadline?.aborted
      ? skip(`skipped: ${passed(deadline)} before this case ran`, [])
      : await beforeDeadline(judge(unit, context, outcomes), deadline, facts.heard);
    // Its requests were cut short by the console closing: that verdict would blame the server.
    if (options.signal?.aborted) return { stopped: true, cases: settled };
    const own = during;
    if (!probed && (own.length > 0 || deadline?.aborted)) {
      probed = true;
      // The first case's requests the deadline aborted, heard: whether any had begun to answer.
      if (deadline?.aborted) await server.settled(SETTLE_MS);
      during = [];
      // Asked as part of the case it follows: every request names its case (console.md §8, audit).
      const unreachable = deadline?.aborted ? null : await noQueueBecause(server.forCase(unit.id), own);
      // Stopped while it asked: the probe's requests were cut short, which says nothing of the
      // server (a Stop during a silent server's probe read as "cannot reach": review).
      if (options.signal?.aborted) return { stopped: true, cases: settled };
      // A probe the deadline cut short says nothing about the server…
      if (unreachable && !deadline?.aborted) return { unreachable };
      // … but a server that answered nothing before the deadline is one that cannot be reached,
      // whatever the deadline: the same exit with 10 s left or 110.
      const silent = deadline?.aborted ? silentUntil(server.baseUrl, own, passed(deadline)) : null;
      if (silent) return { unreachable: silent };
    }
    const result: SettledCase = {
      id: unit.id,
      rule: unit.rule,
      title: unit.title,
      outcome: verdict.outcome,
      message: verdict.message,
      // Kept as evidence shows them (retained.ts): a verdict holds its case's answers whole, parsed,
      // and 48 windows of a server's whole 20,000-item queue filled the heap (audit).
      evidence: (verdict.evidence ?? own).map(retained).sort((a, b) => a.exchange.startedAt - b.exchange.startedAt),
      durationMs: Math.round(options.now() - started),
    };
    outcomes.set(unit.id, result.outcome);
    settled.push(result);
    options.onSettled?.(result);
  }
  return { cases: settled };
}

async function judge(
  unit: ConformanceCase,
  context: CaseContext,
  outcomes: Map<string, ConformanceOutcome>,
): Promise<Verdict> {
  const unmet = (unit.needs ?? []).filter((id) => outcomes.get(id) !== 'pass' && outcomes.get(id) !== 'warn');
  if (unmet.length) {
    const why = unmet.map(
      (id) => `${id} ${outcomes.get(id) === 'skip' ? 'was skipped' : outcomes.has(id) ? 'failed' : 'did not run'}`,
    );
    return {
      outcome: 'skip',
      message: `skipped: it builds on ${unmet.join(', ')}, and ${why.join(', ')}`,
      evidence: [],
    };
  }
  try {
    return await unit.run(context);
  } catch (error) {
    // A bug of the suite, not of the server: said as such, and visible as a failure.
    return { outcome: 'fail', message: `the suite itself failed on this case (please report it): ${messageOf(error)}` };
  }
}

/**
 * The case's verdict, or, when the deadline passes first, a failure saying so: the requests in
 * flight are aborted by the deadline's owner, and a case that would still go on is not waited for.
 */
async function beforeDeadline(
  work: Promise<Verdict>,
  deadline: AbortSignal | undefined,
  heard: Heard,
): Promise<Verdict> {
  if (!deadline) return work;
  const verdictAtDeadline = (): Verdict =>
    fail(
      `${passed(deadline)} while this case was running; its requests were stopped and the cases after it skipped${slowServerNote(heard)}`,
    );
  let onAbort!: () => void;
  const atDeadline = new Promise<Verdict>((resolve) => {
    onAbort = () => resolve(verdictAtDeadline());
    deadline.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const verdict = await Promise.race([work, atDeadline]);
    // Requests the deadline aborted fail the case too: that verdict would blame the server.
    return deadline.aborted ? verdictAtDeadline() : verdict;
  } finally {
    deadline.removeEventListener('abort', onAbort);
  }
}

/** How long aborted requests get to be heard: an abort settles them at once, this is a guard. */
const SETTLE_MS = 1_000;

function passed(deadline: AbortSignal): string {
  return deadline.reason instanceof Error ? deadline.reason.message : "the run's deadline passed";
}
