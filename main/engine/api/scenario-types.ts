/**
 * Saved scenarios: fault rules, user actions, control commands and clock steps, with
 * the transitions they are expected to cause, run as one and reported as pass or fail. Pure
 * types, shared with the renderer.
 */
import type { ExpectationExplanation } from './expectation-types.js';
import type { FaultRuleInput, TriggerRequest } from './fault-types.js';
import type { PlayerAction, PlayerMachineState, PlayerTransition } from './player-types.js';
import type { PlaybackState } from './types.js';

/**
 * On a step a journaled call made while the engine clock ran: per player, how many requests it had
 * begun since the scenario's first call (`requestsBefore`), and by the next call or the span's end
 * (`requestsBy`). The clock runs on while a call is handled, so a player's timer (a report, a poll)
 * went out late, after the call; the replay, clock stopped, sends it on time, before it. Where a
 * player has asked more than then but no more than by the next call, the run stops checking it
 * from that step on, rather than fail a console that did nothing wrong. Fewer, or more than that,
 * no timer explains: it is checked as any step.
 */
export type RequestsBefore = Record<string, number>;

/** What a step a journaled call made may say of the players' requests around it (`RequestsBefore`). */
export interface Journaled {
  requestsBefore?: RequestsBefore;
  requestsBy?: RequestsBefore;
}

/**
 * `overlapsPrevious` on a trigger, faultTrigger, action, command or queueEdit that follows another
 * of them: it was made before the requests the one before it set going were answered (a
 * double-tapped skip). The run holds the players' requests until it has been made, so that it
 * meets what it met then, not a call already answered. `afterAnswers`: how many of the held
 * requests, oldest first, were answered before it was made; the run lets them be answered first.
 */
export interface CallOrder {
  overlapsPrevious?: boolean;
  afterAnswers?: number;
}

/** How a trigger's, faultTrigger's, action's or command's outcome is judged. */
export interface CallOutcome {
  /**
   * The call was still waiting for its outcome when the bundle was exported. The replay makes it
   * at the same engine time; its outcome, or none by the end of the run, is not checked (the
   * bundle never saw it).
   */
  pendingAtExport?: boolean;
  /**
   * Why the step's outcome is not checked: a bundle's call after a load with a token it does not
   * carry meets a player with nothing loaded, and a bundle never expects what it cannot cause.
   */
  outcomeNotChecked?: string;
}

/** A call at a player that may refuse it: `expectError`, the player must refuse. */
export interface RefusableCall extends CallOutcome {
  expectError?: boolean;
}

export type ScenarioStep =
  /** Adds a fault rule; `ref` names it for later steps (a bundle's `rule1`). */
  | ({ type: 'fault'; rule: FaultRuleInput; ref?: string } & Journaled)
  /** Removes the rule an earlier `fault` step named `rule`. */
  | ({ type: 'faultRemove'; rule: string } & Journaled)
  /** Moves the rule an earlier `fault` step named to `toIndex` in the matching order (0: first). */
  | ({ type: 'faultMove'; rule: string; toIndex: number } & Journaled)
  /** Sends the request the named rule waits for ("Trigger now"), from `playerId` or the rule's first player. */
  | ({ type: 'faultTrigger'; rule: string; playerId?: string } & RefusableCall & CallOrder & Journaled)
  /** Makes a player send a request now ("Send now"): `POST /players/{id}/trigger`. */
  | ({ type: 'trigger'; playerId: string; request: TriggerRequest } & RefusableCall & CallOrder & Journaled)
  /**
   * Edits a queue as the Queues area does, with the command's own input (`${queue1.id}`,
   * `${queue1.item-3}` for the queue and its items); `saveItemIds` names the ids of the items the
   * edit makes, in order, for later steps (`queue1.item-13`).
   */
  | ({
      type: 'queueEdit';
      command: QueueEditCommand;
      input: Record<string, unknown>;
      saveItemIds?: string[];
      /**
       * For `queues.create`: the queue made, under this name, as `${name.id}`, `${name.queueBaseUrl}`
       * and `${name.httpAuthorization}` for later steps (a hand-written scenario's own queue).
       */
      saveQueue?: string;
    } & CallOrder &
      Journaled)
  /** Removes every fault rule. */
  | ({ type: 'clearFaults' } & Journaled)
  /** A user action at a player, as from its buttons. */
  | ({ type: 'action'; playerId: string; action: PlayerAction } & RefusableCall & CallOrder & Journaled)
  /**
   * A control API call with the console's token, as an integration would make it. `${name}` in the
   * path or body is replaced by a saved value or a service URL (`${cloudQueue}`, …); `save` keeps
   * fields of the answer (`{"session": "sessionId"}`) for later steps.
   */
  | ({
      type: 'command';
      method: 'GET' | 'POST';
      path: string;
      body?: unknown;
      expectStatus?: number;
      save?: Record<string, string>;
    } & CallOutcome &
      CallOrder &
      Journaled)
  /** Changes the engine clock: speed, and/or a jump that runs every timer due on the way. */
  | { type: 'clock'; speed?: number; advanceMs?: number }
  /**
   * Checks a player: its state now, its item now, and the rows of the transition table it went
   * through (in this order) since the previous check. `state` is the machine's (`SUSPENDED`
   * included) or the wire's (`PLAYBACK_STATE_PAUSED`, as the control API reports it).
   * `requests`: the player's requests that failed or were retries since the previous check, in
   * this order, as `expectedRequestLine` (api/request-line.ts) names them, read from the traffic
   * log.
   */
  | {
      type: 'expect';
      playerId: string;
      state?: PlayerMachineState | PlaybackState;
      itemId?: string;
      transitions?: string[];
      requests?: string[];
    };

/** The steps that make a call and may be made before the one before them was answered (`overlapsPrevious`). */
export const CALL_STEP_TYPES = ['command', 'action', 'trigger', 'faultTrigger', 'queueEdit'] as const;

/** The most answers a step's `afterAnswers` may name. */
export const MAX_AFTER_ANSWERS = 10_000;

/**
 * A scenario holds at most this many steps, a saved one and a bundle's alike: a span of more keeps
 * its first (a replay begins where the span began) and checks no transitions, with a note.
 */
export const MAX_SCENARIO_STEPS = 1_000;

export type CallStep = Extract<ScenarioStep, { type: (typeof CALL_STEP_TYPES)[number] }>;

export const isCallStep = (step: ScenarioStep | undefined): step is CallStep =>
  step !== undefined && (CALL_STEP_TYPES as readonly string[]).includes(step.type);

/** The queue edits a scenario replays: the Queues area's commands that change a queue's items or settings. */
export const QUEUE_EDIT_COMMANDS = [
  'queues.create',
  'queues.update',
  'queues.items.add',
  'queues.items.generate',
  'queues.items.update',
  'queues.items.delete',
  'queues.items.remove',
  'queues.items.move',
] as const;
export type QueueEditCommand = (typeof QUEUE_EDIT_COMMANDS)[number];

export interface Scenario {
  id: string;
  name: string;
  description?: string;
  steps: ScenarioStep[];
  createdAt: number;
}

export interface ScenarioStepResult {
  index: number;
  type: ScenarioStep['type'];
  status: 'passed' | 'failed' | 'skipped';
  message: string;
  /** An action or command still waiting for engine time (a retry, a timeout): its outcome comes later, announced as settled. */
  waiting?: boolean;
  /** An `expect` the run could not hold the player to (its timers fell elsewhere than in the source): skipped, not met. */
  unchecked?: true;
  /**
   * A call whose answer the run does not judge (the file marks it `pendingAtExport` or
   * `outcomeNotChecked`, or its player's timers fell elsewhere): passed, whatever came back.
   */
  notJudged?: true;
  /** A failed `expect` whose transitions were not met: expected and actual side by side, and the exchanges around the first difference. */
  explanation?: ExpectationExplanation;
}

export interface ScenarioReport {
  scenarioId: string;
  name: string;
  /** False when a step failed, and when nothing the file expects could be checked (`notChecked`). */
  passed: boolean;
  /**
   * Why the run is no pass though no step failed: every expectation it has went unchecked (or,
   * with none, every call's outcome), so it would have ended so whatever the console did.
   */
  notChecked?: string;
  /** Engine time the run started and ended. */
  startedAt: number;
  endedAt: number;
  wallMs: number;
  steps: ScenarioStepResult[];
  /** Every transition of the players the scenario touched, during the run. */
  transitions: PlayerTransition[];
  /**
   * What the run put back as it found it once it ended: the clock speed (null: the run left it as
   * it was), the fault rules it added and had not removed itself, and the rules that were there
   * before a `clearFaults` step (with their counts). Reports saved before runs restored anything
   * have none.
   */
  restored?: { clockSpeed: number | null; faultsRemoved: number; faultsPutBack: number };
}
