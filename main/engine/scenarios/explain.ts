/**
 * Explains an `expect` step whose transitions were not met: the expected and the actual sequences
 * side by side from a little before the first difference, and the player's exchanges around it
 * with the fault rule that acted on each. One whose transitions were met but whose end (state,
 * item) or requests were not is explained by what it went through and the exchanges before it. A
 * failed run must say what happened instead, not only what did not; otherwise the reader replays
 * the run by hand to find out.
 *
 * The alignment mirrors the runner's check: the expected rows in order, other rows allowed
 * between them. Everything here is pure but `playerExchangeReader`, which reads the traffic log.
 */
import type {
  EndSubject,
  ExpectationExplanation,
  ExplainedExchange,
  ExplainedTransition,
  ExplanationRow,
} from '../api/expectation-types.js';
import type { PlayerTransition } from '../api/player-types.js';
import type { TrafficSummary, TrafficTarget } from '../api/traffic-types.js';
import { newestRows, type TrafficLogStore } from '../traffic/log/index.js';
import type { TrafficRecorder } from '../traffic/recorder.js';

/** Rows met as expected shown before the first difference, and rows shown from it on. */
const ROWS_BEFORE = 3;
const ROWS_FROM = 8;
/** Exchanges shown before and after the one the difference hangs on. */
const EXCHANGES_BEFORE = 5;
const EXCHANGES_AFTER = 3;

/** A player's exchanges from an engine time on, oldest first, each with the rule that acted on it. */
export type ExchangeReader = (
  playerId: string,
  fromAt: number,
) => { exchanges: Omit<ExplainedExchange, 'caused' | 'anchor'>[]; note?: string };

export interface Alignment {
  /** The whole side-by-side. */
  rows: ExplanationRow[];
  /** Index in `rows` of the first difference. */
  firstRow: number;
  /** Index in the expected list of the first expected transition not met. */
  firstDifference: number;
  /** The last actual transition that met an expected one. */
  lastMet: ExplainedTransition | null;
  /** The actual transition that came where the expected one was due (else the next after the last met); null when the player went through no more. */
  differing: ExplainedTransition | null;
}

/** The two sequences side by side; null when the actual one meets the expected one. */
export function alignTransitions(
  expected: readonly string[],
  actual: readonly ExplainedTransition[],
): Alignment | null {
  const rows: ExplanationRow[] = [];
  let next = 0;
  let lastMet: ExplainedTransition | null = null;
  for (const [k, name] of expected.entries()) {
    const found = actual.findIndex((t, i) => i >= next && t.transition === name);
    if (found === -1) {
      const firstRow = rows.length;
      const rest = alignRest(expected.slice(k), actual.slice(next));
      rest[0] = { ...rest[0]!, first: true };
      rows.push(...rest);
      return { rows, firstRow, firstDifference: k, lastMet, differing: rest[0]!.actual ?? actual[next] ?? null };
    }
    for (let i = next; i < found; i++) rows.push({ expected: null, actual: actual[i]!, mark: 'passed-over' });
    lastMet = actual[found]!;
    rows.push({ expected: name, actual: lastMet, mark: 'same' });
    next = found + 1;
  }
  return null;
}

/** Past this many cells the rest is paired in order, without looking for later agreement. */
const MAX_ALIGN_CELLS = 4_000_000;

/**
 * The two sequences from the first difference on, where the first expected transition never came.
 * Later agreements line up (a longest common subsequence), so that one wrong transition does not
 * make every row after it differ; between two agreements, what was due is paired in order with
 * what came instead, and what came beyond that is passed over. The first row holds the first
 * expected transition.
 */
function alignRest(expected: readonly string[], actual: readonly ExplainedTransition[]): ExplanationRow[] {
  const n = expected.length;
  const m = actual.length;
  // common[i][j]: the longest agreement of expected[i..] and actual[j..].
  const common = n * m > MAX_ALIGN_CELLS ? null : Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  if (common) {
    for (let i = n - 1; i >= 0; i--)
      for (let j = m - 1; j >= 0; j--)
        common[i]![j] =
          expected[i] === actual[j]!.transition
            ? common[i + 1]![j + 1]! + 1
            : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  }
  const rows: ExplanationRow[] = [];
  let due: string[] = [];
  let came: ExplainedTransition[] = [];
  const pairGap = () => {
    for (let g = 0; g < Math.max(due.length, came.length); g++) {
      const want = due[g] ?? null;
      const instead = came[g] ?? null;
      rows.push({
        expected: want,
        actual: instead,
        mark: want === null ? 'passed-over' : instead?.transition === want ? 'same' : 'differs',
      });
    }
    due = [];
    came = [];
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    // The first expected one never came: it always opens the first gap.
    if (common && i > 0 && i < n && j < m && expected[i] === actual[j]!.transition) {
      pairGap();
      rows.push({ expected: expected[i++]!, actual: actual[j++]!, mark: 'same' });
    } else if (j < m && (i >= n || !common || (i > 0 && common[i]![j + 1]! >= common[i + 1]![j]!)))
      came.push(actual[j++]!);
    else due.push(expected[i++]!);
  }
  pairGap();
  return rows;
}

const failedExchange = (exchange: Omit<ExplainedExchange, 'caused'>): boolean =>
  exchange.fault !== null || exchange.outcome !== 'answered' || (exchange.status !== null && exchange.status >= 400);

/**
 * The exchange the difference hangs on: the one whose answer caused the differing transition;
 * else the first that failed or that a rule acted on (what the player then did, or did not, is
 * the difference); else the last that started before the differing transition (or the check).
 */
function anchorOf(
  span: readonly Omit<ExplainedExchange, 'caused'>[],
  differing: ExplainedTransition | null,
  checkedAt: number,
): number {
  const byRequest = differing?.requestId ? span.findIndex((e) => e.requestId === differing.requestId) : -1;
  if (byRequest !== -1) return byRequest;
  const failed = span.findIndex(failedExchange);
  if (failed !== -1) return failed;
  const until = differing?.at ?? checkedAt;
  return span.findLastIndex((e) => e.at <= until);
}

export interface ExplainInput {
  playerId: string;
  expected: readonly string[];
  /** The transitions of the player since its previous check, oldest first. */
  actual: readonly PlayerTransition[];
  /** Engine time of the check. */
  checkedAt: number;
  /** Engine time the span of this check began (the previous check's last transition, or the run's start). */
  spanStart: number;
  /** Reads the player's exchanges; without one (a test without a traffic log) none are shown. */
  read?: ExchangeReader;
}

/** The explanation of a failed check of transitions; null when they were met. */
export function explainExpectation(input: ExplainInput): ExpectationExplanation | null {
  const actual = explained(input.actual);
  const alignment = alignTransitions(input.expected, actual);
  if (!alignment) return null;
  const { rows, firstRow, firstDifference, lastMet, differing } = alignment;
  const shownFrom = Math.max(0, firstRow - ROWS_BEFORE);
  const shownTo = Math.min(rows.length, firstRow + ROWS_FROM);
  const around = exchangesAround(
    input,
    actual,
    lastMet?.at ?? input.spanStart,
    'since the last transition met',
    (span) => anchorOf(span, differing, input.checkedAt),
  );
  return {
    playerId: input.playerId,
    firstDifference,
    at: differing?.at ?? around.anchorAt ?? input.checkedAt,
    checkedAt: input.checkedAt,
    rows: rows.slice(shownFrom, shownTo),
    omitted: { before: shownFrom, after: rows.length - shownTo },
    ...around.shown,
  };
}

/**
 * The explanation of a check whose transitions were met (or that expected none) but that failed on
 * where the player ended, or on its requests: every transition since the previous check, the
 * listed ones met and the rest let pass, and the exchanges leading up to the check, with the one
 * its end came from (`endAnchor`) or, for its requests, the first that failed marked. A FAIL that
 * says only "state is PLAYING, expected PAUSED" leaves the reader to find why by hand.
 */
export function explainEnd(input: ExplainInput & { subject: EndSubject }): ExpectationExplanation {
  const actual = explained(input.actual);
  // The runner's own check: each listed transition met at its first chance, in order.
  let next = 0;
  const rows = actual.map((t): ExplanationRow =>
    input.expected[next] === t.transition
      ? { expected: input.expected[next++]!, actual: t, mark: 'same' }
      : { expected: null, actual: t, mark: 'passed-over' },
  );
  const shownFrom = Math.max(0, rows.length - ROWS_FROM);
  const last = actual.at(-1) ?? null;
  const around = exchangesAround(input, actual, input.spanStart, 'since its previous check', (span) =>
    input.subject === 'requests' ? span.findIndex(failedExchange) : endAnchor(span, last, input.checkedAt),
  );
  return {
    playerId: input.playerId,
    firstDifference: input.expected.length,
    at: around.anchorAt ?? last?.at ?? input.checkedAt,
    checkedAt: input.checkedAt,
    rows: rows.slice(shownFrom),
    omitted: { before: shownFrom, after: 0 },
    ...around.shown,
    subject: input.subject,
  };
}

/**
 * Where a player ended hangs on the answer that caused its last transition; when no answer did (a
 * button, a command), on the last exchange before the check: the newest are the ones to read.
 */
function endAnchor(
  span: readonly Omit<ExplainedExchange, 'caused'>[],
  last: ExplainedTransition | null,
  checkedAt: number,
): number {
  const byRequest = last?.requestId ? span.findIndex((e) => e.requestId === last.requestId) : -1;
  return byRequest !== -1 ? byRequest : span.findLastIndex((e) => e.at <= checkedAt);
}

const explained = (transitions: readonly PlayerTransition[]): ExplainedTransition[] =>
  transitions.map(({ seq, transition, at, from, to, requestId }) => ({ seq, transition, at, from, to, requestId }));

/**
 * The player's exchanges from `fromAt` on, a few before and after the one `anchorIn` picks (the
 * first few when it picks none), each with the transitions of `actual` its answer caused.
 */
function exchangesAround(
  input: Pick<ExplainInput, 'playerId' | 'read'>,
  actual: readonly ExplainedTransition[],
  fromAt: number,
  /** Said when it made none: "since …". */
  since: string,
  anchorIn: (span: readonly Omit<ExplainedExchange, 'caused' | 'anchor'>[]) => number,
): {
  shown: Pick<ExpectationExplanation, 'exchanges' | 'exchangesOmitted' | 'exchangesNote'>;
  anchorAt: number | undefined;
} {
  const read = input.read
    ? input.read(input.playerId, fromAt)
    : { exchanges: [], note: 'no traffic log to read the exchanges from' };
  const span = read.exchanges;
  const anchor = anchorIn(span);
  const from = anchor === -1 ? 0 : Math.max(0, anchor - EXCHANGES_BEFORE);
  const to =
    anchor === -1
      ? Math.min(span.length, EXCHANGES_BEFORE + EXCHANGES_AFTER + 1)
      : Math.min(span.length, anchor + EXCHANGES_AFTER + 1);
  const causedBy = new Map<string, string[]>();
  for (const t of actual)
    if (t.requestId) causedBy.set(t.requestId, [...(causedBy.get(t.requestId) ?? []), t.transition]);
  const exchanges = span.slice(from, to).map((exchange, i) => ({
    ...exchange,
    caused: (exchange.requestId && causedBy.get(exchange.requestId)) || [],
    ...(from + i === anchor ? { anchor: true as const } : {}),
  }));
  const note = exchanges.length ? undefined : (read.note ?? `${input.playerId} made no requests ${since}`);
  return {
    shown: {
      exchanges,
      exchangesOmitted: { before: from, after: span.length - to },
      ...(note === undefined ? {} : { exchangesNote: note }),
    },
    anchorAt: span[anchor]?.at,
  };
}

/**
 * Reads a player's exchanges from the traffic log: its own requests (target `player`, which carry
 * a rule of the player's client), each joined by request id with the same request as the
 * console's cloud queue server saw it (which carries a rule of that server). What is captured is
 * written first, so the exchanges up to the check are all there.
 */
export function playerExchangeReader(
  log: Pick<TrafficLogStore, 'page'>,
  recorder: Pick<TrafficRecorder, 'flush' | 'capturing'>,
): ExchangeReader {
  const newest = (target: TrafficTarget): TrafficSummary[] => newestRows(log, { target });
  return (playerId, fromAt) => {
    recorder.flush();
    const mine = (row: TrafficSummary) => row.playerId === playerId && row.at >= fromAt;
    const atServer = new Map(
      newest('cloudQueue').flatMap((row) =>
        mine(row) && row.fault && row.requestId ? [[row.requestId, { ...row.fault, target: row.target }] as const] : [],
      ),
    );
    const exchanges = newest('player')
      .filter(mine)
      .map((row) => ({
        trafficId: row.id,
        at: row.at,
        method: row.method,
        path: row.path,
        reason: row.reason,
        status: row.status,
        outcome: row.outcome,
        retry: row.retry,
        requestId: row.requestId,
        fault: row.fault
          ? { ...row.fault, target: row.target }
          : (row.requestId && atServer.get(row.requestId)) || null,
      }))
      .sort((a, b) => a.at - b.at || a.trafficId - b.trafficId);
    return {
      exchanges,
      ...(exchanges.length === 0 && !recorder.capturing
        ? { note: 'traffic capture is off: no exchanges were recorded' }
        : {}),
    };
  };
}
