/**
 * Whether a scenario's run could ever fail on what the console does. One whose steps are only
 * clock, fault and queue steps (or expectations that name nothing) would PASS whatever happened:
 * a verdict a user, or CI, would trust. Such a file is refused before it runs, by `run FILE` (exit
 * 2) and by `scenarios.run` (400), never run to a PASS that says nothing. A bundle exported from a
 * span that holds no player's start (a `limit` of the console's own admin calls, a filter that
 * keeps only control calls) is one; its notes say why.
 */
import { isRequestLine } from './request-line.js';
import type { ScenarioStep } from './scenario-types.js';

/** The calls whose answer or refusal a run judges (unless `outcomeNotChecked` or `pendingAtExport` says why not). */
const JUDGED_CALL_TYPES = ['command', 'action', 'trigger', 'faultTrigger'] as const;
export type JudgedCall = Extract<ScenarioStep, { type: (typeof JUDGED_CALL_TYPES)[number] }>;

export const isJudgedCall = (step: ScenarioStep): step is JudgedCall =>
  (JUDGED_CALL_TYPES as readonly string[]).includes(step.type);

/** Steps that fail when the console does other than they say: an expectation, or a call whose answer is checked. */
export const CHECKING_STEP_TYPES: ReadonlySet<ScenarioStep['type']> = new Set(['expect', ...JUDGED_CALL_TYPES]);

export type UncheckedScenario =
  /** An `expect` step (from 0) that names no state, item, transitions or requests. */
  | { kind: 'emptyExpectation'; index: number; message: string }
  /** No step at all that can fail. */
  | { kind: 'checksNothing'; message: string };

/** What makes `steps` unable to fail, or undefined when a run of them can. Messages have no subject. */
export function uncheckedScenario(steps: readonly ScenarioStep[]): UncheckedScenario | undefined {
  const index = steps.findIndex(
    (step) =>
      step.type === 'expect' &&
      step.state === undefined &&
      step.itemId === undefined &&
      step.transitions === undefined &&
      step.requests === undefined,
  );
  if (index !== -1)
    return {
      kind: 'emptyExpectation',
      index,
      message: `step ${index + 1} (expect ${(steps[index] as { playerId: string }).playerId}) names nothing to check: give it a state, an itemId, transitions or requests`,
    };
  // A call whose outcome is not judged fails on nothing (review).
  if (steps.some((step) => CHECKING_STEP_TYPES.has(step.type) && whyNotJudged(step) === null)) return undefined;
  return {
    kind: 'checksNothing',
    message:
      `checks nothing: none of its ${steps.length} steps is an expectation or a call whose answer is checked, so a run would pass whatever the console did. ` +
      "A repro bundle that checks nothing says why in its notes: a span that holds no player's start (export one that begins before the load; after a restart, load the players again first: what they had loaded before it, the journal did not see), or a load with a token of a server of your own, which a bundle does not carry (a scenario of your own can load with it).",
  };
}

/**
 * Names the steps give that nothing can ever match: a transition no row of the player's table has
 * (`rows`), a player the console does not have (`players`), a request line no player's request
 * makes. Each would fail at run time as if the
 * console had done wrong ("no zzz transition"), when it is the file that is: `run FILE` refuses it
 * (exit 2) and `scenarios.run` answers 400, with this message (audit X9: the admin API ran it to a
 * FAIL). Undefined when every name is known. The message has no subject.
 */
export function unknownNames(
  steps: readonly ScenarioStep[],
  rows: ReadonlySet<string>,
  /** Null when they are not known here: no player is refused. */
  players: ReadonlySet<string> | null,
): string | undefined {
  const problems: string[] = [];
  steps.forEach((step, index) => {
    const playerId = 'playerId' in step ? step.playerId : undefined;
    if (playerId !== undefined && players !== null && !players.has(playerId))
      problems.push(`step ${index + 1} (${step.type}) names player ${playerId}, which this console does not have`);
    if (step.type === 'expect') {
      for (const name of step.transitions ?? [])
        if (!rows.has(name))
          problems.push(`step ${index + 1} (expect) names transition ${name}, which no row of the player's table has`);
      for (const line of step.requests ?? [])
        if (!isRequestLine(line))
          problems.push(
            `step ${index + 1} (expect) names request ${JSON.stringify(line)}, which no player's request is: ENDPOINT [REASON] → STATUS, failed or a retry (e.g. itemWindow skipNext → 503, itemWindow skipNext → 200 (retry 1))`,
          );
    }
  });
  if (problems.length === 0) return undefined;
  const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
  const known =
    players === null
      ? 'The transition names are the rows of GET /admin/api/player-table'
      : `The players are ${[...players].join(', ')}; the transition names are the rows of GET /admin/api/player-table`;
  return `names what no run can meet: ${problems.slice(0, 5).join('; ')}${more}. ${known}`;
}

/**
 * `step` made as it was, its outcome not judged because `why`: what it expected of the answer
 * (a status, a refusal) is dropped, so that nothing is held against it.
 */
export function unjudged<S extends ScenarioStep>(step: S, why: string): S {
  const {
    expectStatus: _status,
    expectError: _error,
    ...rest
  } = step as S & {
    expectStatus?: number;
    expectError?: boolean;
  };
  return { ...rest, outcomeNotChecked: why } as S;
}

/**
 * Why a step's outcome is not the run's to judge, or null when it is: a call the bundle saw still
 * waiting (`pendingAtExport`), or one it cannot make as it was made (`outcomeNotChecked`). The
 * runner reports such a step with the reason; a scenario of nothing else checks nothing.
 */
export function whyNotJudged(step: ScenarioStep): string | null {
  if ('outcomeNotChecked' in step && step.outcomeNotChecked !== undefined) return step.outcomeNotChecked;
  if ('pendingAtExport' in step && step.pendingAtExport === true) return 'still waiting when the bundle was exported';
  return null;
}
