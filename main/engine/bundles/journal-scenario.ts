/**
 * Builds a bundle's scenario from the engine journal: the fault rules as they were when the span
 * began, then every journaled call of the span as a step, in the order the calls began, with a
 * clock step for each engine-time gap, the clock stopped so that the replay is exact. At the end,
 * one `expect` per player with the transitions it went through in the span, less those the
 * scenario cannot cause (a call it cannot replay, a player busy before the span began): the notes
 * say which and why.
 */
import { MAX_CLOCK_STEP_MS } from '../api/commands/core.js';
import type { FaultRule, FaultRuleInput } from '../api/fault-types.js';
import { isObject } from '../api/is-object.js';
import type { PlayerAction, PlayerMachineState, PlayerTransition } from '../api/player-types.js';
import {
  isCallStep,
  MAX_AFTER_ANSWERS,
  MAX_SCENARIO_STEPS,
  QUEUE_EDIT_COMMANDS,
  type QueueEditCommand,
  type ScenarioStep,
} from '../api/scenario-types.js';
import type { TriggerRequest } from '../api/fault-types.js';
import type { JournalEntry, JournaledCommand, JournaledControlCall } from '../journal/types.js';
import type { RequestCrossing } from '../api/request-crossing.js';
import { TOKEN_REF, UNKNOWN_TOKEN } from '../journal/secrets.js';
import {
  ControlSteps,
  isUncarriedLoad,
  queueItemRef,
  UNLOADABLE_NOTE,
  type BusyAtStart,
  type ControlStepDeps,
  type QueueRef,
} from './control-steps.js';
import { Divergence, type ControlAnswered, type PlayerRequestMet } from './divergence.js';
import { Notes } from './notes.js';
import { beginsWithItsLoad, expectedRequestLine, type RequestLineSource } from '../api/request-line.js';
import { CHECKING_STEP_TYPES, isJudgedCall, unjudged, whyNotJudged } from '../api/scenario-checks.js';

export interface JournalScenarioInput extends Omit<ControlStepDeps, 'note' | 'queues' | 'busyAtStart'> {
  queues: readonly (QueueRef & { itemIds: Set<string> })[];
  /** The journaled calls of the span, in the order they began. */
  calls: readonly JournalEntry[];
  /** Engine time the span began and ended. */
  from: number;
  to: number;
  /** The fault rules when the span began, in matching order, with their hits then. */
  startRules: readonly FaultRule[];
  /** Every player's recorded transitions, oldest first. */
  transitions: readonly RecordedTransition[];
  /** The players' own requests of the span as the traffic log holds them, oldest first. */
  requests?: readonly SpanRequest[];
  /** False: nothing is checked (a filtered export); the reason is in the notes already. */
  checkable: boolean;
  /** What the export found the replay cannot reproduce from some time on (all players). */
  cuts: readonly Cut[];
  /** The item a player is on now (null: none): the span's last item when nothing happened to it since. */
  itemNow?: (playerId: string) => string | null;
  /** The group a player plays for (undefined: a player gone). */
  groupOf?: (playerId: string) => string | undefined;
  /** The players' requests of the span (traffic entries with a player), in any order. */
  playerRequests?: readonly PlayerRequestMet[];
  /** Control calls a fault rule answered in the route's place (span-entries.ts). */
  controlAnswered?: readonly ControlAnswered[];
  /** By player, the requests begun when the span was exported (`requestsBegun` of a call then). */
  requestsBegunAtEnd?: Record<string, number>;
  /** The players' answers that crossed (`requestCrossings` of the journal). */
  crossings?: readonly RequestCrossing[];
}

/** A transition as the store keeps it: what the checks need of it. */
export type RecordedTransition = Pick<PlayerTransition, 'playerId' | 'at' | 'transition'> & {
  from: string;
  to: string;
  cause: string;
};

/** A player's own request in the span (a traffic entry of target `player`). */
export type SpanRequest = RequestLineSource & { playerId: string; at: number };

/** From `at` on, `playerId`'s transitions (every player's: `*`) are not expected, because `why`. */
export interface Cut {
  at: number;
  playerId: string;
  why: string;
}

export interface JournalScenario {
  steps: ScenarioStep[];
  notes: string[];
}

/**
 * A session made (`playbackSession:1`, its id saved) is the way in for the calls after it, not what
 * a bundle reproduces. Where no player is checked and no other call's answer is (a load whose token
 * the bundle does not carry, a span cut short), its 200 was the only check left, and a bundle that
 * reproduced nothing of what was exported ran to PASSED, "0 of 0 expectations met" (audit): its
 * answer is not judged then, and the bundle is refused as checking nothing, its notes saying why.
 */
function withoutBareSessions(steps: ScenarioStep[]): ScenarioStep[] {
  const madeOnly = (step: ScenarioStep): boolean =>
    step.type === 'command' &&
    step.method === 'POST' &&
    step.path.endsWith('/playbackSession:1') &&
    Object.values(step.save ?? {}).includes('sessionId') &&
    (step.expectStatus === undefined || (step.expectStatus >= 200 && step.expectStatus < 300));
  const checkedBesides = steps.some(
    (step) => !madeOnly(step) && CHECKING_STEP_TYPES.has(step.type) && whyNotJudged(step) === null,
  );
  if (checkedBesides) return steps;
  return steps.map((step) =>
    madeOnly(step) && whyNotJudged(step) === null
      ? unjudged(step, 'made to carry the calls after it, none of whose outcomes the bundle checks')
      : step,
  );
}

/**
 * A control call that names a queue of the exporting console the bundle does not carry (`queueIds`
 * left it out, or it was deleted since): its token reference (`${token:<id>}`) names nothing in the
 * replay, and its URL is the exporting console's, another host to `run`. The call is made as one
 * with a token of no queue, on the replaying console's own server (where it fails, as it can only),
 * and nothing it causes is checked; it was checked, and failed every replay (audit).
 */
function uncarriedQueue(
  call: JournaledControlCall,
  input: Pick<JournalScenarioInput, 'queues' | 'cloudQueueUrl'>,
): { call: JournaledControlCall; queueId: string } | undefined {
  if (!isObject(call.body) || typeof call.body.httpAuthorization !== 'string') return undefined;
  const queueId = TOKEN_REF.exec(call.body.httpAuthorization)?.[1];
  if (queueId === undefined || input.queues.some((queue) => queue.id === queueId)) return undefined;
  const body: Record<string, unknown> = { ...call.body, httpAuthorization: UNKNOWN_TOKEN };
  const prefix = `${input.cloudQueueUrl}/`;
  if (typeof body.queueBaseUrl === 'string' && body.queueBaseUrl.startsWith(prefix))
    body.queueBaseUrl = `\${cloudQueue}/${body.queueBaseUrl.slice(prefix.length)}`;
  return { call: { ...call, body }, queueId };
}

export function faultRuleInput(rule: FaultRule): FaultRuleInput {
  const { id: _id, hits: _hits, passes: _passes, spent: _spent, createdAt: _createdAt, ...input } = rule;
  const {
    shadowedBy: _by,
    shadow: _shadow,
    warning: _warning,
    ...stored
  } = input as FaultRuleInput & { shadowedBy?: unknown; shadow?: unknown; warning?: unknown };
  return stored;
}

export function scenarioFromJournal(input: JournalScenarioInput): JournalScenario {
  const notes = new Notes();
  const cuts: Cut[] = [...input.cuts];
  const cut = (at: number, playerId: string, why: string) => cuts.push({ at, playerId, why });
  const queues = new Map(input.queues.map((q) => [q.id, q]));
  const startStates = stateAtStart(input);
  const busyAtFirst = busyAtStart(input, startStates);
  // By player, whatever group it has now (or none): its requests the replay never makes.
  const busyPlayers = new Set([...startStates].flatMap(([playerId, was]) => (was === 'IDLE' ? [] : [playerId])));
  const control = new ControlSteps({
    ...input,
    queues: input.queues,
    busyAtStart: busyAtFirst,
    note: (text) => notes.add(text),
  });
  const divergence = new Divergence();
  // Players a rule answered a request of begun before it was added (`cutRequestsBegunBefore`), from which step.
  const metBeforeAdded: { playerId: string; fromStep: number; why: string }[] = [];
  // Where each call's steps begin, by the call's engine time, in the order the calls began.
  const callStarts: { at: number; index: number }[] = [];
  /**
   * From `at` on the replay cannot do what the source did: the players' transitions are not
   * checked, nor the outcomes of the calls, which what happened there may have decided (a rule of
   * chance drawing afresh, a request the replay does not make, a bundle imported adding its fault
   * rules, a queue deleted failing a later load). Only the transitions were cut after a command no
   * scenario can make, and a load the imported storm had answered 502 failed the replay with 200
   * (audit).
   */
  const diverged = (at: number, why: string): void => {
    cut(at, '*', why);
    divergence.diverged(at, why);
  };
  const steps: ScenarioStep[] = [{ type: 'clearFaults' }, { type: 'clock', speed: 0 }];

  // The rules as the replay holds them: the source's ids, by the bundle's names for them.
  const refOf = new Map<string, string>();
  let order: string[] = [];
  const addRule = (rule: FaultRule, at: number, rest?: number): void => {
    const ref = `rule${refOf.size + 1}`;
    refOf.set(rule.id, ref);
    divergence.ruleAdded(rule, at);
    order.push(rule.id);
    const ruleInput = faultRuleInput(rule);
    if (rest !== undefined) ruleInput.times = rest;
    steps.push({ type: 'fault', rule: ruleInput, ref });
  };
  for (const rule of input.startRules) {
    if (rule.spent) continue;
    if (rule.probability !== undefined && rule.hits + rule.passes > 0) {
      // What a call meets from it differs too: a load it answered 403 went through in the source.
      diverged(
        input.from,
        `rule ${rule.label ?? rule.id} drew ${rule.hits + rule.passes} times before the span, and its draws start afresh in the replay`,
      );
    }
    const rest = rule.times !== undefined && rule.hits > 0 ? Math.max(1, rule.times - rule.hits) : undefined;
    addRule(rule, input.from, rest);
  }

  let now = input.from;
  let speedNoted = false;
  // The last call that made steps and where they ended (`racing`), and the calls made at once
  // since, from the first one's time and request ticket (null: none).
  let lastCall: { call: JournalEntry; stepsEnd: number } | undefined;
  let atOnce: { at: number; from: number | undefined } | null = null;
  const senders = new Set<string>();
  // The call before, and where its steps begin: what each player had asked by then is said on its first.
  let counted: { call: JournalEntry; firstStep: number } | null = null;
  for (const entry of input.calls) {
    saidRequestsBefore(counted, entry.requestsBegun);
    let call = entry;
    pushGap(steps, call.at - now);
    now = Math.max(now, call.at);
    counted = { call, firstStep: steps.length };
    divergence.callAt(call.at, steps.length);
    callStarts.push({ at: call.at, index: steps.length });
    if (call.kind === 'control') {
      senders.add(call.sender);
      const uncarried = uncarriedQueue(call, input);
      if (uncarried) {
        call = uncarried.call;
        notes.add(
          `queue ${uncarried.queueId} is not in the bundle (the export named other queues, or it was deleted): a load of it is made with a token of no queue, on the replaying console's own server`,
        );
      }
      const made = control.stepsOf(call);
      // Its group's player (every player's, when the group is not known) did what the replay cannot.
      if (isUncarriedLoad(call)) {
        const why = `${call.method} ${call.path} sent a token of no queue of this console, which the bundle does not carry: neither its answer nor those of the later calls of its session are checked`;
        for (const playerId of playersOfGroup(control.groupOfPath(call.path)) ?? ['*']) cut(call.at, playerId, why);
      }
      steps.push(...racing(call, waitingAtExport(call, made)));
      continue;
    }
    if (call.input === null) {
      if (call.name !== 'queues.create')
        diverged(call.at, `${call.name} (${call.omitted ?? 'its input'}) is not kept, so it cannot be replayed`);
      continue;
    }
    const step = commandStep(call);
    if (step === 'skip') continue;
    if (step === 'unreplayable') {
      diverged(call.at, `${call.name} cannot be replayed by a scenario`);
      continue;
    }
    if (step === 'speed') {
      // A jump alone (`advanceMs`) replays exactly; only a speed is replayed otherwise than it was.
      if (!speedNoted && (call.input as { speed?: number }).speed !== undefined) {
        notes.add(
          'clock speed changes are replayed as the engine time they let pass: the scenario runs with the clock stopped, for exactness',
        );
        speedNoted = true;
      }
      const advance = (call.input as { advanceMs?: number }).advanceMs;
      if (advance) {
        pushGap(steps, advance);
        now += advance;
      }
      continue;
    }
    steps.push(...racing(call, notCheckedAfterUnloadable(waitingAtExport(call, step))));
  }
  saidRequestsBefore(counted, input.requestsBegunAtEnd);
  pushGap(steps, input.to - now);
  closeAtOnce();
  const uncaused = divergence.uncausedRequest(
    input.playerRequests ?? [],
    input.from,
    {
      playerIds: new Set([...busyAtFirst.values()].map((busy) => busy.playerId)),
      reloadedAt: control.reloadedAt,
    },
    (ruleId) => refOf.get(ruleId) ?? ruleId,
  );
  if (uncaused) diverged(uncaused.at, uncaused.why);
  const unmade = divergence.unmadeControlCall(input.controlAnswered ?? [], (ruleId) => refOf.get(ruleId) ?? ruleId);
  if (unmade) diverged(unmade.at, unmade.why);
  divergence.apply(steps, (text) => notes.add(text));
  // What a call on such a player met hangs on the answer it got otherwise: its later actions and
  // triggers, and the control calls on its group, are not judged.
  for (const { playerId, fromStep, why } of metBeforeAdded) {
    const group = input.groupOf?.(playerId);
    for (let i = fromStep; i < steps.length; i++) {
      const step = steps[i]!;
      const onIt =
        ('playerId' in step && step.playerId === playerId) ||
        (group !== undefined && control.playerGroupOf(step) === group);
      if (onIt && isJudgedCall(step) && !whyNotJudged(step)) steps[i] = unjudged(step, why);
    }
  }
  if (senders.size > 1)
    notes.add(
      `control calls were sent as ${[...senders].join(', ')}: the replay sends each with the console\u2019s own token (the bundle carries no credentials)`,
    );

  const expectations = input.checkable ? expectationsOf(input, cuts, notes) : [];
  if (steps.length + expectations.length > MAX_SCENARIO_STEPS) {
    if (steps.length > MAX_SCENARIO_STEPS) {
      notes.add(
        `the span makes ${steps.length} steps; a scenario holds ${MAX_SCENARIO_STEPS}: the rest were left out, and the player transitions are not checked (export a narrower span: a lower \`limit\` begins it later)`,
      );
      steps.length = MAX_SCENARIO_STEPS;
    } else
      notes.add(
        `the player transitions are not checked: their checks would take the scenario past ${MAX_SCENARIO_STEPS} steps`,
      );
  } else {
    steps.push(...expectations);
  }
  return { steps: withoutBareSessions(steps), notes: notes.list() };

  /** The players of the span who play for `groupId` now; null when it cannot be told. */
  function playersOfGroup(groupId: string | undefined): string[] | null {
    const { groupOf } = input;
    if (groupId === undefined || !groupOf) return null;
    const seen = new Set([...startStates.keys(), ...input.transitions.map((row) => row.playerId)]);
    const mine = [...seen].filter((playerId) => groupOf(playerId) === groupId);
    return mine.length > 0 ? mine : null;
  }

  /**
   * After a load with a token the bundle does not carry, a player's action or trigger may meet
   * nothing loaded in the replay (which player the session moved, the journal does not say); so
   * does one of a player busy when the scenario began, until a load of its goes through: made as
   * it was, its outcome is not checked.
   */
  function notCheckedAfterUnloadable(made: ScenarioStep[]): ScenarioStep[] {
    return made.map((step) => {
      if (step.type !== 'action' && step.type !== 'trigger' && step.type !== 'faultTrigger') return step;
      const why = control.unloadedFor(step.playerId === undefined ? undefined : input.groupOf?.(step.playerId))
        ? UNLOADABLE_NOTE
        : step.type !== 'faultTrigger' || step.playerId
          ? control.busyNote(step.playerId!)
          : undefined;
      return why ? unjudged(step, why) : step;
    });
  }

  /**
   * A call made while a player's request was under way, right after another call at the same
   * instant: its own step (the last of its steps) is made before the requests the step before it
   * set going are answered, as it was (a double-tapped skip met the first still waiting).
   */
  function racing(call: JournalEntry, made: ScenarioStep[]): ScenarioStep[] {
    if (made.length === 0) return made;
    const before = lastCall;
    lastCall = { call, stepsEnd: steps.length + made.length };
    const own = made[0]!;
    // Right after the call journaled before it, at its instant, each one step of a call: nothing
    // between them (a clock step, a session the replay makes first) to settle the first.
    const atOnceWithBefore =
      call.whileRequestsInFlight === true &&
      made.length === 1 &&
      isCallStep(own) &&
      before !== undefined &&
      before.call.seq === call.seq - 1 &&
      before.call.at === call.at &&
      before.stepsEnd === steps.length &&
      isCallStep(steps.at(-1));
    if (!atOnceWithBefore) {
      closeAtOnce();
      // With the clock running no two calls share an instant, and the replay settles the one before
      // first: what this one met while a request was under way it may not meet again.
      const last = made.at(-1)!;
      if (call.clockRan && call.whileRequestsInFlight && isJudgedCall(last) && !whyNotJudged(last))
        return [...made.slice(0, -1), unjudged(last, RACED_WITH_THE_CLOCK_RUNNING)];
      return made;
    }
    atOnce ??= { at: before.call.at, from: before.call.requestsIssued };
    // The first one's answers that came before this one was made: the replay lets them come first.
    const answered = Math.min(
      MAX_AFTER_ANSWERS,
      Math.max(0, (call.answeredAtInstant ?? 0) - (before.call.answeredAtInstant ?? 0)),
    );
    return [{ ...own, overlapsPrevious: true, ...(answered > 0 ? { afterAnswers: answered } : {}) } as ScenarioStep];
  }

  /**
   * On the first step of a call made while the clock ran: per player idle when the span began, the
   * requests it had begun since the span's first call (an idle player asks nothing before a call
   * moves it), for the replay to compare with its own (`requestsBefore`). A player busy then is
   * not checked anyway, and its requests the replay never makes.
   */
  function saidRequestsBefore(
    made: { call: JournalEntry; firstStep: number } | null,
    next: Record<string, number> | undefined,
  ): void {
    if (!made?.call.clockRan || !made.call.requestsBegun || made.firstStep >= steps.length) return;
    const base = input.calls[0]?.requestsBegun ?? {};
    const before: Record<string, number> = {};
    const by: Record<string, number> = {};
    for (const [playerId, count] of Object.entries(made.call.requestsBegun)) {
      // A player busy at the start, or no longer checked by then, asks otherwise for other reasons.
      if (busyPlayers.has(playerId) || cutBy(playerId, made.call.at)) continue;
      before[playerId] = count - (base[playerId] ?? 0);
      by[playerId] = Math.max(before[playerId], (next?.[playerId] ?? count) - (base[playerId] ?? 0));
    }
    const step = steps[made.firstStep]!;
    if (step.type !== 'clock' && step.type !== 'expect')
      Object.assign(step, { requestsBefore: before, requestsBy: by });
  }

  /** Whether the checks of `playerId` (or every player's) were cut at or before `at`. */
  function cutBy(playerId: string, at: number): boolean {
    return cuts.some((c) => c.at <= at && (c.playerId === '*' || c.playerId === playerId));
  }

  /**
   * Ends a run of calls made at once. A player's answers that came in another order than its
   * requests went out (one waited for a connection), where one of the two requests is the run's
   * (begun from its first call on) and one began at its instant (the clock stopped, nothing else
   * began then), cannot be replayed in that order: the replay sends the requests it held in turn.
   * What the players did from the first of those calls on is then not checked, nor what the calls
   * were answered. A journal that kept no tickets knows of no crossing.
   */
  function closeAtOnce(): void {
    if (atOnce === null) return;
    const { at, from } = atOnce;
    atOnce = null;
    const ours = (crossing: RequestCrossing) =>
      from !== undefined && crossing.tickets.some((ticket) => ticket >= from) && crossing.at.includes(at);
    if (!(input.crossings ?? []).some(ours)) return;
    diverged(
      at,
      `calls made at once at ${new Date(at).toISOString()} had a player's answers come in another order than its requests went out, which a replay cannot repeat`,
    );
  }

  /**
   * A call still waiting when the bundle was exported: its own step (the last of its steps) is
   * made at the same engine time, and its outcome, known only after the export, is not checked.
   */
  function waitingAtExport(call: JournalEntry, made: ScenarioStep[]): ScenarioStep[] {
    if (!call.pendingAtExport || made.length === 0) return made;
    const own = made.at(-1)!;
    if (!isJudgedCall(own)) return made;
    const what = call.kind === 'control' ? `${call.method} ${call.path.split('?')[0]}` : call.name;
    notes.add(
      `${what} was still waiting for its outcome when the bundle was exported: the replay makes it at the same engine time and does not check its outcome`,
    );
    const {
      expectStatus: _status,
      expectError: _error,
      ...rest
    } = own as ScenarioStep & { expectStatus?: number; expectError?: boolean };
    return [...made.slice(0, -1), { ...rest, pendingAtExport: true } as ScenarioStep];
  }

  /**
   * A player's request begun before `rule` was added, with the clock running, that the rule still
   * answered: it was under way as the call was handled (the clock runs on meanwhile). The replay,
   * clock stopped, sends it before the rule is there, and the server answers it: what the player
   * did from there is not checked (audit: a report begun just before a 503 storm was added met the
   * storm; replayed, it was answered 204, and the run failed on a console that did nothing wrong).
   */
  function cutRequestsBegunBefore(rule: FaultRule, addedAt: number): void {
    const cutFor = new Set<string>();
    for (const r of input.playerRequests ?? []) {
      if (r.ruleId !== rule.id || r.at > addedAt || cutFor.has(r.playerId)) continue;
      cutFor.add(r.playerId);
      const why = `a request of ${r.playerId} begun before rule ${refOf.get(rule.id) ?? rule.id} was added, with the clock running, was answered by it; the replay, clock stopped, sends it before the rule is there: its answer and what ${r.playerId} did from there are not checked`;
      cut(addedAt, r.playerId, why);
      // A window a call waits for (a load's first, a skip's) may be that of the last call begun
      // before it: that call's answer hangs on it too, and the replay, awaiting the call before it
      // adds the rule, has it answered otherwise (review: a load 502 in the source, 200 replayed).
      const waiting = r.waitedOn ? callStarts.findLast((start) => start.at <= r.at) : undefined;
      metBeforeAdded.push({ playerId: r.playerId, fromStep: waiting?.index ?? steps.length, why });
    }
  }

  /** The steps of one journaled command; `skip` for one that changes nothing the replay needs. */
  function commandStep(call: JournaledCommand): ScenarioStep[] | 'skip' | 'unreplayable' | 'speed' {
    const body = call.input as Record<string, unknown>;
    switch (call.name) {
      case 'faults.add':
      case 'faults.applyPreset': {
        const rule = call.rules?.find((r) => r.id === call.result?.ruleId);
        if (!rule) return 'unreplayable';
        addRule(rule, call.at);
        if (call.clockRan) cutRequestsBegunBefore(rule, call.at);
        return [];
      }
      case 'faults.remove': {
        const ref = refOf.get(String(body.id));
        order = order.filter((id) => id !== body.id);
        return ref ? [{ type: 'faultRemove', rule: ref }] : 'skip';
      }
      case 'faults.clear':
        order = [];
        return [{ type: 'clearFaults' }];
      case 'faults.move': {
        const id = String(body.id);
        const ref = refOf.get(id);
        if (!ref || !call.rules) return 'skip';
        // Where it stands among the replay's rules: after those of them the source put before it.
        const after = call.rules.map((r) => r.id).filter((rid) => order.includes(rid));
        const toIndex = after.indexOf(id);
        order = after;
        return [{ type: 'faultMove', rule: ref, toIndex: Math.max(0, toIndex) }];
      }
      case 'faults.trigger': {
        const ref = refOf.get(String(body.id));
        if (!ref) return 'unreplayable';
        return [
          { type: 'faultTrigger', rule: ref, ...(call.result?.playerId ? { playerId: call.result.playerId } : {}) },
        ];
      }
      case 'players.trigger':
        return [
          {
            type: 'trigger',
            playerId: String(body.id),
            request: body.request as TriggerRequest,
            ...(call.ok ? {} : { expectError: true }),
          },
        ];
      case 'players.act':
        return [
          {
            type: 'action',
            playerId: String(body.id),
            action: body.action as PlayerAction,
            ...(call.ok ? {} : { expectError: true }),
          },
        ];
      case 'clock.set':
        return 'speed';
      // Nothing a player does depends on these: the queue is carried, a name is only a name.
      case 'queues.create':
      case 'queues.items.generate.stop':
      case 'players.update':
        return 'skip';
      default:
        if ((QUEUE_EDIT_COMMANDS as readonly string[]).includes(call.name))
          return queueEditStep(call.name as QueueEditCommand, body, call.result?.itemIds ?? []);
        return 'unreplayable';
    }
  }

  function queueEditStep(
    command: QueueEditCommand,
    body: Record<string, unknown>,
    made: readonly string[],
  ): ScenarioStep[] | 'skip' {
    const queue = queues.get(String(body.id));
    // A queue no traffic of the span used plays no part in it.
    if (!queue) return 'skip';
    const item = (id: unknown) => (typeof id === 'string' ? queueItemRef(queue, id, (text) => notes.add(text)) : id);
    const mapped: Record<string, unknown> = { ...body, id: `\${${queue.ref}.id}` };
    if ('itemId' in body) mapped.itemId = item(body.itemId);
    if ('afterItemId' in body) mapped.afterItemId = item(body.afterItemId);
    if (Array.isArray(body.itemIds)) mapped.itemIds = body.itemIds.map(item);
    if (Array.isArray(body.items))
      mapped.items = body.items.map((it) =>
        isObject(it) && typeof it.id === 'string' ? { ...it, id: item(it.id) } : it,
      );
    const step: ScenarioStep = { type: 'queueEdit', command, input: mapped };
    // The replay's queue makes its own ids: saved under the source's names, for later steps.
    if (made.length) {
      step.saveItemIds = made.map((id) => `${queue.ref}.${id}`);
      for (const id of made) queue.itemIds.add(id);
    }
    return [step];
  }
}

/** Each player's state when the span began: its last transition's before it, or its first's in it. */
function stateAtStart(input: JournalScenarioInput): Map<string, string> {
  const state = new Map<string, string>();
  for (const t of input.transitions) {
    if (t.at < input.from) state.set(t.playerId, t.to);
    else if (!state.has(t.playerId)) state.set(t.playerId, t.from);
  }
  return state;
}

const RACED_WITH_THE_CLOCK_RUNNING =
  "made while a player's request was in flight and the clock ran: the replay, clock stopped, settles what came before it first";

/**
 * By group, the players that were not idle when the scenario began (`from`): the state their last
 * transition before it left them in, or the one their first transition in it left. A restart keeps
 * where each player was, and the journal begins anew; reaching back (reach-back.ts) finds no load
 * before a start, nor for a player the span does not move.
 */
function busyAtStart(input: JournalScenarioInput, states: ReadonlyMap<string, string>): Map<string, BusyAtStart> {
  const busy = new Map<string, BusyAtStart>();
  for (const [playerId, was] of states) {
    const groupId = input.groupOf?.(playerId);
    if (was !== 'IDLE' && groupId) busy.set(groupId, { playerId, state: was });
  }
  return busy;
}

/**
 * The player's failed and retried requests of the span before `until`, as its expectation names
 * them. When the log no longer holds the span's start (`beginsWithItsLoad`), what it holds is
 * not checked (a note says so) rather than checked as if it were all.
 */
function requestsOf(
  input: JournalScenarioInput,
  playerId: string,
  until: number,
  notes: Notes,
  /** Whether an answer caused one of its transitions of the span: then it made requests. */
  answered: boolean,
): string[] {
  const mine = (input.requests ?? []).filter((r) => r.playerId === playerId && r.at < until);
  // None at all of a player that was answered: the log was cleared (or capture was off), not a span without failures.
  if (mine.length === 0 && answered) {
    notes.add(
      `${playerId}: the traffic log holds none of its requests of the span (cleared, or capture off): which of them failed or were retried is not checked`,
    );
    return [];
  }
  if (!beginsWithItsLoad(mine)) {
    notes.add(
      `${playerId}: the traffic log no longer holds its first requests of the span: which of them failed or were retried is not checked`,
    );
    return [];
  }
  const lines = mine.flatMap((r) => expectedRequestLine(r) ?? []);
  if (lines.length > MAX_REQUESTS_EXPECTED) {
    notes.add(
      `${playerId}: the first ${MAX_REQUESTS_EXPECTED} of its ${lines.length.toLocaleString('en-US')} requests that failed or were retries are checked`,
    );
    return lines.slice(0, MAX_REQUESTS_EXPECTED);
  }
  return lines;
}

/** Requests an expectation lists at most: an hour's 503 storm makes thousands, and the first show it. */
export const MAX_REQUESTS_EXPECTED = 200;

/**
 * One `expect` per player with the transitions it went through in the span, if it began the span
 * idle (the replay's players begin idle), up to its first cut. Timer rows are left out: they
 * follow from the others, and the run's own transitions show them. Retries change no row: the
 * requests that failed or were retried are listed beside them (`requests`).
 */
function expectationsOf(input: JournalScenarioInput, cuts: readonly Cut[], notes: Notes): ScenarioStep[] {
  const byPlayer = new Map<string, RecordedTransition[]>();
  for (const t of input.transitions) {
    if (t.at < input.from || t.at > input.to) continue;
    const list = byPlayer.get(t.playerId);
    if (list) list.push(t);
    else byPlayer.set(t.playerId, [t]);
  }
  const steps: ScenarioStep[] = [];
  for (const [playerId, list] of byPlayer) {
    if (list[0]!.from !== 'IDLE') {
      notes.add(
        `${playerId} was ${list[0]!.from} when the span began, and a replay starts with its players idle: its transitions are not checked`,
      );
      continue;
    }
    const mine = cuts.filter((c) => c.playerId === playerId || c.playerId === '*').sort((a, b) => a.at - b.at);
    const first = mine[0];
    const checked = list.filter((t) => t.cause !== 'timer');
    const kept = first ? checked.filter((t) => t.at < first.at) : checked;
    if (first && kept.length < checked.length) {
      notes.add(
        `${playerId}: the ${checked.length - kept.length} transitions from ${new Date(first.at).toISOString()} on are not checked: ${first.why}`,
      );
    } else if (first && first.at <= input.to) {
      // Nothing of its own after the cut, yet where it ended is not held either: said, or a replay
      // that sent it elsewhere passed with no word of why (audit X19).
      notes.add(
        `${playerId}: where it ended (its state and item) is not checked, only its transitions before ${new Date(first.at).toISOString()}: ${first.why}`,
      );
    }
    if (!kept.length) continue;
    const step: ScenarioStep & { type: 'expect' } = {
      type: 'expect',
      playerId,
      transitions: kept.map((t) => t.transition),
    };
    const answered = kept.some((t) => t.cause === 'response');
    const requests = requestsOf(input, playerId, first?.at ?? Infinity, notes, answered);
    if (requests.length) step.requests = requests;
    // Where it ended, when the replay has all of it: a replay that went through the same rows but
    // ended elsewhere (another item, another state) did not reproduce the span.
    if (!first) Object.assign(step, endOf(input, playerId, list, notes));
    steps.push(step);
  }
  return steps;
}

/** The state a player ended the span in, and its item when the export still knows it. */
function endOf(
  input: JournalScenarioInput,
  playerId: string,
  list: readonly RecordedTransition[],
  notes: Notes,
): { state: PlayerMachineState; itemId?: string } {
  const state = list.at(-1)!.to as PlayerMachineState;
  // The item now is the span's last only when nothing happened to the player after the span.
  const moved = input.transitions.some((t) => t.playerId === playerId && t.at > input.to);
  const itemId = moved ? undefined : input.itemNow?.(playerId);
  if (!itemId) return { state };
  const queue = input.queues.find((q) => q.itemIds.has(itemId));
  return queue ? { state, itemId: queueItemRef(queue, itemId, (text) => notes.add(text)) } : { state };
}

function pushGap(steps: ScenarioStep[], gap: number): void {
  // A step moves the clock at most MAX_CLOCK_STEP_MS: a longer gap is several steps.
  for (let left = Math.round(gap); left > 0; left -= MAX_CLOCK_STEP_MS)
    steps.push({ type: 'clock', advanceMs: Math.min(left, MAX_CLOCK_STEP_MS) });
}
