/**
 * The conformance suite, "check my cloud queue server" (docs/contract/console.md §8): the console
 * plays the platform's player against a cloud queue server and says, rule by rule, where that
 * server breaks the contract, backing each verdict with the exchanges in the traffic log. Pure
 * types, shared with the renderer.
 */

/**
 * How a case ended:
 * - `pass`: the server did what the rule says;
 * - `fail`: it broke the rule (the message says what was expected and what came back);
 * - `warn`: nothing the rule forbids, but something a reasonable reading differs on, or an
 *   answer slower than 1 s: the message says which;
 * - `skip`: the case could not run (a case it builds on failed, the queue is empty, no
 *   Authorization was given): the message says why.
 */
export const CONFORMANCE_OUTCOMES = ['pass', 'fail', 'warn', 'skip'] as const;
export type ConformanceOutcome = (typeof CONFORMANCE_OUTCOMES)[number];

/** A run is `running` until its last case settles; then `failed` if any case failed or the server could not be reached, else `passed`. */
export type ConformanceRunStatus = 'running' | 'passed' | 'failed';

/** One case of the suite, as listed before any run (`conformance.cases`). */
export interface ConformanceCaseInfo {
  /** Stable and unique: `item-window.unknown-item`. Reports and scripts key on it. */
  id: string;
  /** The rule it checks, as the docs cite it: `docs/contract/platform.md §7.1`. Group by it. */
  rule: string;
  /** What a server must do, in one line: "An unknown itemId is answered 404". */
  title: string;
}

export interface ConformanceCaseResult extends ConformanceCaseInfo {
  outcome: ConformanceOutcome;
  /** What was expected and what came back, or why the case was skipped. */
  message: string;
  /**
   * The traffic log entries (target `player`) of the requests this case judged, oldest first:
   * its evidence. Empty when it made none, or when traffic capture is off.
   */
  trafficIds: number[];
  /** Wall ms the case took. */
  durationMs: number;
  /**
   * A failing or warning case's evidence in the reports themselves, so that it outlives the
   * console that ran it: the exchanges its verdict rests on (the decisive one first, at most
   * MAX_CASE_EXCHANGES, secrets masked, bodies cut at 4 KB). Absent on passes and skips, and on
   * runs kept by an older console.
   */
  exchanges?: ConformanceExchange[];
  /** How many more exchanges the verdict rests on than `exchanges` holds. */
  exchangesLeftOut?: number;
  /**
   * A curl command that repeats the decisive request (`exchanges[0]`), its Authorization written
   * `$AUTHORIZATION` for the shell to fill in: the report never holds a credential in clear.
   */
  curl?: string;
}

/** A body as a report keeps it: its first MAX_EVIDENCE_BODY_BYTES bytes. */
export interface ConformanceBody {
  text: string;
  /** Its whole size in bytes, as sent or received; null for an answer cut at the byte cap, whose size nobody read. */
  bytes: number | null;
  /** True when `text` is only its start. */
  cut: boolean;
}

/** One request of a case and what came back, secrets masked (docs/contract/console.md §9). */
export interface ConformanceExchange {
  method: string;
  url: string;
  /** The URL that answered, when the request was redirected there (its status is that URL's). */
  redirectedTo?: string;
  /**
   * The status that came; null when none did. With `failure` set beside a status, the answer came
   * but not whole (over the byte cap, nested too deep): `failure` says why.
   */
  status: number | null;
  failure: string | null;
  requestHeaders: Record<string, string>;
  requestBody: ConformanceBody | null;
  responseHeaders: Record<string, string>;
  responseBody: ConformanceBody | null;
  /** Wall ms until the answer (or the failure). */
  latencyMs: number;
}

/** The most exchanges a case keeps in a run, and the most bytes of each body. */
export const MAX_CASE_EXCHANGES = 8;
export const MAX_EVIDENCE_BODY_BYTES = 4_096;

/** How many cases ended each way; `total` is the number of cases in the suite, settled or not. */
export interface ConformanceSummary {
  total: number;
  pass: number;
  fail: number;
  warn: number;
  skip: number;
}

/**
 * Why a run stopped without running its cases: the server could not be reached at all (no
 * answer to GET /context nor to GET /itemWindow, or nothing at either: the base URL is not a
 * queue's, and the message says what one looks like), the console stopped while it ran, or it
 * was stopped (`conformance.runs.stop`).
 */
export interface ConformanceRunError {
  kind: 'unreachable' | 'interrupted' | 'stopped';
  message: string;
}

/** A run without its cases: what the list of runs shows. */
export interface ConformanceRunSummary {
  id: string;
  /** The queueBaseUrl checked, as given (its secret query parameters masked). */
  baseUrl: string;
  /**
   * The Authorization the requests carried, masked (`Bearer abcd•••`), or null when none was
   * given. Only the running console holds it in clear (docs/contract/console.md §9).
   */
  authorization: string | null;
  /**
   * True when the run sent an Authorization this console no longer holds (it restarted since):
   * a rerun must be given it again.
   */
  rerunNeedsAuthorization: boolean;
  status: ConformanceRunStatus;
  /** Wall time (epoch ms) the run started and finished: null while it runs, and for a run a crash cut short. */
  startedAt: number;
  finishedAt: number | null;
  summary: ConformanceSummary;
  /** Set when the run stopped before its cases ran; the run then failed with this one message. */
  error: ConformanceRunError | null;
  /** The run this one reran, if it is a rerun. */
  rerunOf: string | null;
}

/** A run: `GET /admin/api/conformance/runs/{id}`. Its cases in suite order, as they settle. */
export interface ConformanceRun extends ConformanceRunSummary {
  cases: ConformanceCaseResult[];
}

/** What `conformance.progress` carries: once per settled case (`settled`), and once at the end (`settled` null, `status` final). */
export interface ConformanceProgress {
  runId: string;
  status: ConformanceRunStatus;
  settled: ConformanceCaseResult | null;
  summary: ConformanceSummary;
  /** Set on the end event of a run that stopped before its cases ran. */
  error: ConformanceRunError | null;
}

export const CONFORMANCE_REPORT_FORMATS = ['json', 'junit', 'html'] as const;
export type ConformanceReportFormat = (typeof CONFORMANCE_REPORT_FORMATS)[number];

/** An exported report: a file to save as it is. */
export interface ConformanceReportFile {
  fileName: string;
  mediaType: string;
  content: string;
}

/**
 * The X-Player-Id of the suite's requests: what the server's logs and the traffic log show, and
 * how the console's own cloud queue server knows the reports it need not keep.
 */
export const CHECK_PLAYER_ID = 'conformance-check';

/** The most runs kept; the oldest go beyond it. */
export const MAX_CONFORMANCE_RUNS = 50;

/**
 * A run's bounds (docs/contract/console.md §8), each a field of the run's input: its whole-run
 * deadline (wall ms; then the case running fails and the rest are skipped), and the most bytes
 * read of one answer (a bigger one is cut there and fails, naming the size).
 */
export const DEFAULT_CONFORMANCE_TIMEOUT_MS = 120_000;
export const MAX_CONFORMANCE_TIMEOUT_MS = 3_600_000;
export const DEFAULT_CONFORMANCE_MAX_BYTES = 1_048_576;
export const MAX_CONFORMANCE_MAX_BYTES = 64 * 1_048_576;
/**
 * A value the suite made up (an itemId no queue has, a token no server issued), whole: no secret,
 * so reports keep it in clear and a replay sends it again (conformance/made-up.ts).
 */
export const MADE_UP_PATTERN = '^cqc-check-(?:no-such-item|wrong)-[\\w-]{1,64}$';
