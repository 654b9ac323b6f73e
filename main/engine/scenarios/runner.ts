/**
 * Runs a saved scenario step by step on the live engine and says whether it passed: each step's
 * outcome, and every transition of the players it touched. The first failing step fails the run;
 * the steps after it are reported as skipped. Before each check, in-flight requests are let
 * finish (the engine clock does not move for that).
 *
 * With the clock stopped, an action or command that waits for engine time (a skip retried after
 * Retry-After, a load whose window request times out after 10 s) could never end: it runs on while
 * the next steps move the clock, and its outcome counts as soon as it is known. One still
 * waiting when the run ends fails it.
 *
 * Calls made at once (`overlapsPrevious`: a double-tapped skip) are made as they were, each before
 * the requests of the one before it are answered: the players' requests are held at a gate while
 * such a run of calls is made, and let go once the last of them is.
 *
 * A run leaves the console as it found it: the clock at its speed, the fault rules the run added
 * removed, and the rules a `clearFaults` step took away put back. Otherwise a scenario that stops
 * the clock would leave every player frozen, and its 503 storm would go on failing traffic.
 */
import { messageOf } from '../api/errors.js';
import type { PlayerTransition } from '../api/player-types.js';
import type { FaultRule } from '../api/fault-types.js';
import type { EndSubject, ExpectationExplanation } from '../api/expectation-types.js';
import { beginsWithItsLoad, expectedRequestLine, requestLines, unmetRequestLine } from '../api/request-line.js';
import type { Scenario, ScenarioReport, ScenarioStep, ScenarioStepResult } from '../api/scenario-types.js';
import type { ServiceUrls } from '../api/types.js';
import type { EngineClock } from '../clock/clock.js';
import type { EventBus } from '../events/bus.js';
import type { FaultRegistry } from '../faults/registry.js';
import type { ControlCaller } from '../player/commands.js';
import type { PlayerRegistry } from '../player/registry.js';
import { isJournalStep, ruleVar, runJournalStep } from './journal-steps.js';
import { explainEnd, explainExpectation, type ExchangeReader } from './explain.js';
import { VARIABLE } from '../api/scenario-variables.js';
import { isJudgedCall, whyNotJudged } from '../api/scenario-checks.js';
import { isCallStep } from '../api/scenario-types.js';
import { nothingChecked } from '../api/scenario-verdict.js';
import type { PlayerRequestsInFlight } from '../player/requests-in-flight.js';

export interface ScenarioDeps {
  faults: FaultRegistry;
  players: PlayerRegistry;
  clock: EngineClock;
  bus: Pick<EventBus, 'on' | 'emit'>;
  callControl: ControlCaller;
  urls: () => ServiceUrls;
  /** Runs a command of the table, for the steps a bundle's journal adds (triggers, queue edits). */
  commands?: (name: string, input: unknown) => Promise<unknown>;
  /** Reads a player's exchanges to explain a failed check (the traffic log's); without it none are shown. */
  exchanges?: ExchangeReader;
  /**
   * The players' requests, held while a step made before the previous one's requests were
   * answered (`overlapsPrevious`) is made; without it such steps are made one after another.
   */
  requests?: Pick<
    PlayerRequestsInFlight,
    'hold' | 'release' | 'releaseOldest' | 'holding' | 'heldCount' | 'ended' | 'until' | 'begunCounts'
  >;
}

class StepFailure extends Error {
  constructor(
    message: string,
    readonly explanation?: ExpectationExplanation,
  ) {
    super(message);
  }
}

export async function runScenario(scenario: Scenario, deps: ScenarioDeps): Promise<ScenarioReport> {
  const started = performance.now();
  const startedAt = deps.clock.now();
  const seen: PlayerTransition[] = [];
  const stop = deps.bus.on('player.transition', (t) => seen.push(t));
  const checkedUpTo = new Map<string, number>();
  // Per player, the traffic id of the last request an `expect` step read.
  const requestsUpTo = new Map<string, number>();
  // A Map: a saved name like `constructor` or `__proto__` is a name like any other.
  const vars: Vars = new Map(Object.entries(deps.urls()));
  const results: ScenarioStepResult[] = [];
  const waiting: WaitingStep[] = [];
  const found: FoundConsole = {
    at: startedAt,
    speed: deps.clock.speed,
    ruleIds: new Set(deps.faults.list().map((rule) => rule.id)),
    cleared: [],
  };
  let failed = false;
  // Calls whose outcome the run judged: a file with no expectation checks only these.
  let judgedCalls = 0;
  let restored: ScenarioReport['restored'];
  // Per player, why it is no longer checked: its timers fell elsewhere than in the source (`requestsBefore`).
  const drifted = new Map<string, string>();
  const begunAtStart = deps.requests?.begunCounts() ?? {};
  // Each outcome as it is known, for whoever watches the run live (the CLI's `run`, the UI).
  const announce = (step: ScenarioStepResult, settled: boolean): void =>
    deps.bus.emit('scenarios.step', {
      scenarioId: scenario.id,
      at: deps.clock.now(),
      startedAt,
      stepCount: scenario.steps.length,
      step: { ...step },
      settled,
    });
  try {
    for (const [index, step] of scenario.steps.entries()) {
      if (failed) {
        results.push({ index, type: step.type, status: 'skipped', message: 'not run: an earlier step failed' });
        announce(results.at(-1)!, false);
        continue;
      }
      const driftedWhy = step.type === 'expect' ? (drifted.get(step.playerId) ?? drifted.get(EVERY_PLAYER)) : undefined;
      if (step.type === 'expect' && driftedWhy !== undefined) {
        results.push({
          index,
          type: step.type,
          status: 'skipped',
          message: `${step.playerId}: not checked: ${driftedWhy}`,
          unchecked: true,
        });
        announce(results.at(-1)!, false);
        continue;
      }
      // A call the bundle saw still waiting, or one it cannot make as it was made: made as it can
      // be, its outcome not the run's to judge; nor one after a player's timers fell elsewhere.
      let notChecked = whyNotJudged(step) ?? (isJudgedCall(step) ? driftNote(drifted, step) : null);
      // A step not made at once with the one before ends any run of such calls, however the last
      // of them ended (one refused before it reached its settling holds no request back).
      if (!overlaps(step) && deps.requests?.holding) deps.requests.release();
      // The next step was made before this one's requests were answered: they wait until it is.
      // Only with the clock stopped (a bundle's): held requests' timeouts run on engine time.
      const besideNext =
        deps.requests !== undefined &&
        deps.clock.speed === 0 &&
        isCallStep(step) &&
        overlaps(scenario.steps[index + 1]);
      if (besideNext) deps.requests!.hold();
      try {
        if (overlaps(step)) await answerHeld(step, deps);
        if (noteDrift(step, index, deps, begunAtStart, drifted) && isJudgedCall(step))
          notChecked ??= driftNote(drifted, step);
        // Read before the step is made: a call made in process holds its request at once.
        const heldBefore = deps.requests?.heldCount ?? 0;
        const outcome = await runStep(
          step,
          deps,
          vars,
          seen,
          { transitions: checkedUpTo, requests: requestsUpTo },
          found,
          (work) => settleCall(work, deps, { besideNext, heldBefore }),
        );
        const notJudged = notChecked === null ? {} : { notJudged: true as const };
        const result: ScenarioStepResult =
          typeof outcome === 'string'
            ? { index, type: step.type, status: 'passed', message: unjudgedSaid(outcome, notChecked), ...notJudged }
            : {
                index,
                type: step.type,
                status: 'passed',
                message: outcome.beside ? 'waiting while the next call is made' : 'waiting for engine time',
                waiting: true,
                ...notJudged,
              };
        results.push(result);
        if (isJudgedCall(step) && notChecked === null) judgedCalls += 1;
        if (typeof outcome !== 'string')
          waiting.push(
            watch(outcome.work, result, () => announce(result, true), {
              unjudged: notChecked,
              beside: outcome.beside === true,
            }),
          );
        announce(result, false);
      } catch (error) {
        if (notChecked !== null) {
          results.push({
            index,
            type: step.type,
            status: 'passed',
            message: `${messageOf(error)} (not checked: ${notChecked})`,
            notJudged: true,
          });
          announce(results.at(-1)!, false);
          continue;
        }
        failed = true;
        const explanation = error instanceof StepFailure ? error.explanation : undefined;
        results.push({
          index,
          type: step.type,
          status: 'failed',
          message: messageOf(error),
          ...(explanation ? { explanation } : {}),
        });
        announce(results.at(-1)!, false);
      }
      await yieldToEventLoop();
      if (waiting.some((w) => w.result.status === 'failed')) failed = true;
      // A failed step ends its group: the requests it held go out (the steps after are not made).
      if (failed && deps.requests?.holding) deps.requests.release();
    }
    if (waiting.length) await deps.clock.advance(0);
    for (const w of waiting.filter((w) => !w.ended)) {
      delete w.result.waiting;
      if (w.unjudged !== null) {
        w.result.message = `still waiting when the run ended (not checked: ${w.unjudged})`;
        announce(w.result, true);
        continue;
      }
      failed = true;
      w.result.status = 'failed';
      w.result.message = w.beside
        ? 'still waiting when the run ended, for answers the calls made at once with it held back'
        : 'still waiting for engine time when the run ended: a later clock step must move past its retries or timeout';
      announce(w.result, true);
    }
    for (const w of waiting) w.closed = true;
  } finally {
    deps.requests?.release();
    stop();
    restored = restore(found, deps);
  }
  const touched = new Set(
    scenario.steps.flatMap((s) => ('playerId' in s && s.playerId ? [deps.players.forPlayer(s.playerId)?.id] : [])),
  );
  const checkedNothing = failed ? undefined : nothingChecked(scenario.steps, results, judgedCalls);
  return {
    scenarioId: scenario.id,
    name: scenario.name,
    passed: !failed && checkedNothing === undefined,
    ...(checkedNothing === undefined ? {} : { notChecked: checkedNothing }),
    startedAt,
    endedAt: deps.clock.now(),
    wallMs: Math.round(performance.now() - started),
    steps: results,
    transitions: touched.size ? seen.filter((t) => touched.has(t.playerId)) : seen,
    restored,
  };
}

/** The console as the run found it: its clock speed, its fault rules, and those a step cleared. */
interface FoundConsole {
  /** Engine time the run began. */
  at: number;
  speed: number;
  ruleIds: Set<string>;
  /** Rules there before the run that a `clearFaults` step removed, as they stood then. */
  cleared: FaultRule[];
}

function restore(found: FoundConsole, deps: ScenarioDeps): ScenarioReport['restored'] {
  let faultsRemoved = 0;
  for (const rule of deps.faults.list())
    if (!found.ruleIds.has(rule.id) && deps.faults.remove(rule.id)) faultsRemoved++;
  const faultsPutBack = deps.faults.putBack(found.cleared);
  const clockSpeed = deps.clock.speed === found.speed ? null : found.speed;
  if (clockSpeed !== null) deps.clock.setSpeed(clockSpeed);
  return { clockSpeed, faultsRemoved, faultsPutBack };
}

/** An action or command still waiting for engine time, and the report line it settles. */
interface WaitingStep {
  result: ScenarioStepResult;
  ended: boolean;
  /** Why its outcome is not judged (`pendingAtExport`, `outcomeNotChecked`): a refusal or no end at all passes; null: judged. */
  unjudged: string | null;
  /** Set when the run ends: what the work does after that (the clock put back runs it on) is not the run's. */
  closed: boolean;
  /** It waited for the calls made at once with it, not for engine time. */
  beside?: true;
}

/** A step's message, with why its outcome was not judged when it was not. */
const unjudgedSaid = (message: string, unjudged: string | null) =>
  unjudged === null ? message : `${message} (not checked: ${unjudged})`;

function watch(
  work: Promise<string>,
  result: ScenarioStepResult,
  settled: () => void,
  { unjudged, beside }: { unjudged: string | null; beside: boolean },
): WaitingStep {
  const entry: WaitingStep = { result, ended: false, closed: false, unjudged, ...(beside ? { beside } : {}) };
  const endedAfter = beside ? 'the calls made at once with it were made' : 'the clock moved';
  const settle = (change: Partial<ScenarioStepResult>): void => {
    if (entry.closed) return;
    delete result.waiting;
    Object.assign(result, change);
    settled();
  };
  work
    .then(
      (message) => settle({ message: unjudgedSaid(`${message} (once ${endedAfter})`, unjudged) }),
      (error: unknown) =>
        settle(
          unjudged !== null
            ? { message: `${messageOf(error)} (not checked: ${unjudged})` }
            : { status: 'failed', message: messageOf(error) },
        ),
    )
    .finally(() => (entry.ended = true));
  return entry;
}

/**
 * Awaits a step's work. With the clock stopped, work still pending once everything in flight has
 * settled (the clock waits for the work itself too, as long as for any request) can only be
 * waiting for a timer: it is handed back to run on (see the file comment).
 */
async function settleOrWait(work: Promise<string>, clock: EngineClock): Promise<string | Waiting> {
  if (clock.speed > 0) return work;
  let ended = false;
  clock.track(
    work.then(
      () => (ended = true),
      () => (ended = true),
    ),
  );
  await clock.advance(0);
  return ended ? work : { work };
}

/**
 * Why `step`'s outcome is no longer judged once a player's timers fell elsewhere (null: judged).
 * A step that names its player (an action, a trigger) is judged unless that player drifted or a
 * shared rule's answers did: another player's timers change nothing it meets (review-z2 S2). A
 * control command names a session or a group, which the runner does not map to a player: not
 * judged after any drift.
 */
function driftNote(drifted: ReadonlyMap<string, string>, step: ScenarioStep): string | null {
  if (!drifted.size) return null;
  const named = 'playerId' in step && typeof step.playerId === 'string' ? step.playerId : undefined;
  if (named !== undefined && !drifted.has(named) && !drifted.has(EVERY_PLAYER)) return null;
  return `${[...drifted.keys()].filter((id) => id !== EVERY_PLAYER).join(', ')} asked the server at other moments than in the source`;
}

/** The key of `drifted` that stops checking every player. */
const EVERY_PLAYER = '*';

/**
 * Before a step a call made while the source's clock ran (`requestsBefore`): a player that has
 * asked more requests than it had then, and no more than by the next call (`requestsBy`), is not
 * checked from here on: its timers went out late in the source, whose clock ran on while calls
 * were handled, and on time in the replay, whose clock stands still. While a fault rule with a
 * count or a chance is live, every player stops being checked: such a rule answers the others
 * otherwise once one player's requests came at other moments. True when this step found one.
 */
function noteDrift(
  step: ScenarioStep,
  index: number,
  deps: Pick<ScenarioDeps, 'requests' | 'faults'>,
  begunAtStart: Record<string, number>,
  drifted: Map<string, string>,
): boolean {
  const { requestsBefore: expected, requestsBy: upTo = {} } = step as {
    requestsBefore?: Record<string, number>;
    requestsBy?: Record<string, number>;
  };
  if (!expected || !deps.requests) return false;
  const now = deps.requests.begunCounts();
  let found = false;
  for (const [playerId, then] of Object.entries(expected)) {
    const asked = (now[playerId] ?? 0) - (begunAtStart[playerId] ?? 0);
    // Only more, and no more than it asked by the next call: a request sent on time that went out
    // late in the source. Fewer, or more than that, no timer explains: checked as it stands.
    if (asked <= then || asked > (upTo[playerId] ?? then) || drifted.has(playerId)) continue;
    drifted.set(
      playerId,
      // Said of the file's numbers, not of an export: a hand-written scenario may give requestsBefore too.
      `its timers fell elsewhere around step ${index + 1} (${step.type}): it had made ${then} request${then === 1 ? '' : 's'} before it then (requestsBefore), ${asked} in this run`,
    );
    found = true;
  }
  const shared = deps.faults
    .list()
    .find((rule) => !rule.spent && (rule.times !== undefined || rule.probability !== undefined));
  if (found && shared && !drifted.has(EVERY_PLAYER))
    drifted.set(
      EVERY_PLAYER,
      `rule ${shared.label ?? shared.id} (a count or a chance, shared by every player) answered otherwise once a player's requests came at other moments than in the source`,
    );
  return found;
}

/** A step's work that has not ended: waiting for engine time, or (`beside`) for the call made beside it. */
interface Waiting {
  work: Promise<string>;
  beside?: true;
}

const overlaps = (step: ScenarioStep | undefined): boolean => isCallStep(step) && step.overlapsPrevious === true;

/** Wall time a call of a group is given to end or send a request before the next is made. */
const PARK_BOUND_MS = 1_000;

/**
 * Settles a call's work. In a group of calls made at once (`overlapsPrevious`), each is let run
 * until it ends or a request of its waits at the held gate, and the next is made then; the last
 * lets the held requests go, in the order they came, and settles as any step does.
 */
async function settleCall(
  work: Promise<string>,
  deps: Pick<ScenarioDeps, 'clock' | 'requests'>,
  { besideNext, heldBefore }: { besideNext: boolean; heldBefore: number },
): Promise<string | Waiting> {
  const requests = deps.requests;
  if (!requests?.holding) return settleOrWait(work, deps.clock);
  const ended = await parked(work, requests, heldBefore);
  if (besideNext) return ended ? work : { work, beside: true };
  requests.release();
  return settleOrWait(work, deps.clock);
}

/** Whether the work ended (else a request of its is held, or the bound passed). */
async function parked(
  work: Promise<string>,
  requests: NonNullable<ScenarioDeps['requests']>,
  heldBefore: number,
): Promise<boolean> {
  let ended = false;
  const done = work.then(
    () => (ended = true),
    () => (ended = true),
  );
  await within(
    requests.until(() => requests.heldCount > heldBefore),
    PARK_BOUND_MS,
    done,
  );
  return ended;
}

/**
 * Before a step made at once with the one before it: as many held requests as were answered
 * before it was made (`afterAnswers`) are answered first. Which ones the journal does not say:
 * they go out one at a time, oldest first (a request an answer sets going is held and goes in
 * turn), each given ONE_ANSWER_MS to be answered before the next goes too, so that one its
 * server never answers (a timeout rule) does not stand for one that was answered.
 */
async function answerHeld(step: ScenarioStep, deps: Pick<ScenarioDeps, 'requests'>): Promise<void> {
  const requests = deps.requests;
  const wanted = isCallStep(step) ? (step.afterAnswers ?? 0) : 0;
  if (!requests?.holding || wanted === 0) return;
  const target = requests.ended + wanted;
  const deadline = performance.now() + PARK_BOUND_MS;
  while (requests.ended < target && performance.now() < deadline) {
    const released = requests.releaseOldest(1);
    const ended = requests.ended;
    const held = requests.heldCount;
    await within(
      requests.until(() => requests.ended > ended || requests.heldCount > held),
      Math.min(ONE_ANSWER_MS, deadline - performance.now()),
    );
    // What an answer sets going in the player happens before the step is made, as it did then.
    await yieldToEventLoop();
    // Nothing held, nothing sent and nothing more came: no answer is left to wait for.
    if (released === 0 && requests.ended === ended && requests.heldCount === 0) break;
  }
}

/** Wall time a released request is given to be answered before the next held one goes too. */
const ONE_ANSWER_MS = 150;

/** Waits until `wait` is reached, `also` settles or `boundMs` of wall time pass. */
async function within(
  wait: { reached: Promise<void>; cancel: () => void },
  boundMs: number,
  also?: Promise<unknown>,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, boundMs))));
  await Promise.race([wait.reached, bound, ...(also ? [also] : [])]);
  wait.cancel();
  clearTimeout(timer);
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function runStep(
  step: ScenarioStep,
  deps: ScenarioDeps,
  vars: Vars,
  seen: PlayerTransition[],
  checked: { transitions: Map<string, number>; requests: Map<string, number> },
  found: FoundConsole,
  settle: (work: Promise<string>) => Promise<string | Waiting>,
): Promise<string | Waiting> {
  const checkedUpTo = checked.transitions;
  if (isJournalStep(step)) {
    return runJournalStep(step, {
      faults: deps.faults,
      commands: deps.commands,
      vars,
      fill: (value) => substituteIn(value, vars),
      settle,
    });
  }
  switch (step.type) {
    case 'fault': {
      const rule = deps.faults.add(step.rule);
      if (step.ref) vars.set(ruleVar(step.ref), rule.id);
      return `fault ${rule.id} on ${rule.target}${step.ref ? ` (${step.ref})` : ''}: ${rule.action.type}`;
    }
    case 'clearFaults': {
      const theirs = deps.faults.list().filter((rule) => found.ruleIds.has(rule.id));
      found.cleared.push(...theirs);
      const removed = deps.faults.clear();
      return `${removed} fault ${removed === 1 ? 'rule' : 'rules'} removed${theirs.length ? ` (${theirs.length} put back when the run ends)` : ''}`;
    }
    case 'action': {
      const player = playerOf(deps, step.playerId);
      const act = async () => {
        try {
          await player.act(step.action, 'user');
        } catch (error) {
          if (step.expectError) return `${step.action} refused as expected: ${(error as Error).message}`;
          throw new StepFailure(`${step.action} at ${step.playerId} failed: ${(error as Error).message}`);
        }
        if (step.expectError) throw new StepFailure(`${step.action} at ${step.playerId} was expected to be refused`);
        return `${step.action} at ${step.playerId}`;
      };
      return settle(act());
    }
    case 'command': {
      const path = substitute(step.path, vars);
      const body = step.body === undefined ? undefined : substituteIn(step.body, vars);
      const send = async () => {
        const answer = await deps.callControl(step.method, path, body);
        const expected = step.expectStatus ?? 200;
        // An answer not the run's to judge is said as it came, with no status it was held to.
        if (answer.status !== expected && whyNotJudged(step) === null)
          throw new StepFailure(
            `${step.method} ${path} answered ${answer.status}, expected ${expected}: ${JSON.stringify(answer.body)}`,
          );
        for (const [name, field] of Object.entries(step.save ?? {})) {
          const value = field
            .split('.')
            .reduce<unknown>(
              (obj, key) =>
                typeof obj === 'object' && obj !== null && Object.hasOwn(obj, key)
                  ? (obj as Record<string, unknown>)[key]
                  : undefined,
              answer.body,
            );
          if (value === undefined) throw new StepFailure(`the answer of ${path} has no ${field} to save as ${name}`);
          vars.set(name, String(value));
        }
        return `${step.method} ${path} → ${answer.status}`;
      };
      return settle(send());
    }
    case 'clock': {
      if (step.speed !== undefined) deps.clock.setSpeed(step.speed);
      if (step.advanceMs) await deps.clock.advance(step.advanceMs);
      return [
        step.speed !== undefined ? `speed ${step.speed}` : '',
        step.advanceMs ? `advanced ${step.advanceMs} ms` : '',
      ]
        .filter(Boolean)
        .join(', ');
    }
    case 'expect': {
      await deps.clock.advance(0);
      const player = playerOf(deps, step.playerId);
      const since = checkedUpTo.get(player.id) ?? 0;
      const mine = seen.filter((t) => t.playerId === player.id && t.seq > since);
      checkedUpTo.set(player.id, mine.at(-1)?.seq ?? since);
      const problems: string[] = [];
      // What failed first, when not the transitions: what the explanation leads up to.
      let subject: EndSubject | undefined;
      if (step.state !== undefined) {
        // A wire state is checked against what the control API reports; a machine state against the machine.
        const now = step.state.startsWith('PLAYBACK_STATE_') ? player.status().playbackState : player.machineState;
        if (now !== step.state) {
          problems.push(`state is ${now}, expected ${step.state}`);
          subject = 'state';
        }
      }
      const itemId = player.status().itemId;
      // An item a queue edit made is named by what its step saved (a bundle's `${queue1.item-9}`).
      const expectedItem = step.itemId === undefined ? undefined : substitute(step.itemId, vars);
      if (expectedItem !== undefined && itemId !== expectedItem) {
        problems.push(`item is ${itemId ?? 'none'}, expected ${expectedItem}`);
        subject ??= 'item';
      }
      let explanation: ExpectationExplanation | null = null;
      // The span this check covers began at the previous check's last transition, or with the run.
      const spanStart = seen.find((t) => t.seq === since)?.at ?? found.at;
      if (step.transitions) {
        let at = 0;
        for (const [k, expected] of step.transitions.entries()) {
          const found = mine.findIndex((t, i) => i >= at && t.transition === expected);
          if (found === -1) {
            // The row before it in the list, by position: a row listed twice names its own predecessor.
            problems.push(
              `no ${expected} transition${k > 0 ? ` after ${step.transitions[k - 1]}` : ''} (saw: ${mine.map((t) => t.transition).join(', ') || 'none'})`,
            );
            explanation = explainExpectation({
              playerId: player.id,
              expected: step.transitions,
              actual: mine,
              checkedAt: deps.clock.now(),
              spanStart,
              ...(deps.exchanges ? { read: deps.exchanges } : {}),
            });
            break;
          }
          at = found + 1;
        }
      }
      let requestsSaid = '';
      if (step.requests && problems.length === 0) {
        const met = unmetRequests(step.requests, player.id, deps, found.at, checked.requests);
        if ('problem' in met) {
          problems.push(met.problem);
          subject = 'requests';
        } else
          requestsSaid = met.unchecked
            ? `; requests not checked: ${met.unchecked}`
            : `; requests ${requestLines(step.requests)}`;
      }
      if (problems.length) {
        explanation ??= explainEnd({
          playerId: player.id,
          expected: step.transitions ?? [],
          actual: mine,
          checkedAt: deps.clock.now(),
          spanStart,
          subject: subject ?? 'state',
          ...(deps.exchanges ? { read: deps.exchanges } : {}),
        });
        throw new StepFailure(`${step.playerId}: ${problems.join('; ')}`, explanation);
      }
      return `${step.playerId}: ${player.machineState}${step.transitions ? `, went through ${step.transitions.join(' → ')}` : ''}${requestsSaid}`;
    }
  }
}

/**
 * The first of `expected` the player's failed and retried requests since its previous check do not
 * go through in this order, said as the problem; nothing when they all do. Read from the traffic
 * log, as the explanation reads them. A console that records none (capture turned off, no log)
 * cannot check them: that is said beside the pass, not failed, since the players may well have
 * done it all again (the transitions are still checked).
 */
function unmetRequests(
  expected: readonly string[],
  playerId: string,
  deps: ScenarioDeps,
  runStart: number,
  upTo: Map<string, number>,
): { problem: string } | { unchecked?: string } {
  if (!deps.exchanges) return { unchecked: 'this console has no traffic log to read them from' };
  const since = upTo.get(playerId) ?? -1;
  const read = deps.exchanges(playerId, runStart);
  if (read.exchanges.length === 0 && read.note) return { unchecked: read.note };
  const mine = read.exchanges.filter((e) => e.trafficId > since);
  if (mine.length) upTo.set(playerId, Math.max(...mine.map((e) => e.trafficId)));
  if (since === -1 && !beginsWithItsLoad(mine))
    return { unchecked: 'the traffic log no longer holds its first requests of the run' };
  const lines = mine.flatMap((e) => expectedRequestLine(e) ?? []);
  const unmet = unmetRequestLine(expected, lines);
  if (!unmet) return {};
  return {
    problem: `no ${unmet.line} request${unmet.after ? ` after ${unmet.after}` : ''} (saw: ${requestLines(lines, 10) || 'none failed or was retried'})`,
  };
}

function playerOf(deps: ScenarioDeps, playerId: string) {
  const player = deps.players.forPlayer(playerId);
  if (!player) throw new StepFailure(`no player ${playerId}`);
  return player;
}

type Vars = Map<string, string>;

function substitute(text: string, vars: Vars): string {
  return text.replace(VARIABLE, (_whole, name: string) => {
    const value = vars.get(name);
    if (value === undefined) throw new StepFailure(`no value for \${${name}}: save it from an earlier command`);
    return value;
  });
}

/**
 * A command body with `${name}` filled in its strings, keys left as written. Filled value by value,
 * not in the body's JSON text: a saved value with a quote in it stays one string value instead of
 * breaking the text or adding fields.
 */
function substituteIn(value: unknown, vars: Vars): unknown {
  if (typeof value === 'string') return substitute(value, vars);
  if (Array.isArray(value)) return value.map((inner) => substituteIn(inner, vars));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, substituteIn(inner, vars)]));
  return value;
}
