/**
 * Why an `expect` step's transitions were not met, told so that a person sees it at once: the
 * expected and the actual transitions side by side from a little before the first difference, and
 * the player's exchanges around it with the fault rule that acted on each; or, when they were met
 * and its end or requests were not (`subject`), what it went through and the exchanges before the
 * check. Pure types, shared with the renderer.
 */
import type { FaultHit } from './fault-types.js';
import type { PlayerMachineState } from './player-types.js';
import type { TrafficOutcome, TrafficTarget } from './traffic-types.js';

/** A transition the player went through, as the explanation shows it. */
export interface ExplainedTransition {
  seq: number;
  transition: string;
  /** Engine time. */
  at: number;
  from: PlayerMachineState;
  to: PlayerMachineState;
  /** The request whose answer caused it, if one did. */
  requestId: string | null;
}

/**
 * One line of the side-by-side: `same`, met as expected; `passed-over`, an actual transition
 * between two expected ones (an expectation lists the rows in order, not every row); `differs`,
 * from the first difference on, where the two sequences are paired in order.
 */
export interface ExplanationRow {
  expected: string | null;
  actual: ExplainedTransition | null;
  mark: 'same' | 'passed-over' | 'differs';
  /** Set on the row of the first difference. */
  first?: true;
}

/** A fault rule that acted on an exchange, and where: in the player's client or at a console server. */
export type ExplainedFault = FaultHit & { target: TrafficTarget };

/** One of the player's exchanges near the first difference. */
export interface ExplainedExchange {
  trafficId: number;
  /** Engine time the request started. */
  at: number;
  method: string;
  path: string;
  reason: string | null;
  status: number | null;
  outcome: TrafficOutcome;
  retry: number | null;
  requestId: string | null;
  /** The rule that acted on it, in the player's client or at the console's cloud queue server; null: none did. */
  fault: ExplainedFault | null;
  /** The transitions of this check that its answer caused. */
  caused: string[];
  /** The exchange the first difference hangs on: the one that caused the differing transition, or the first that failed. */
  anchor?: true;
}

export interface ExpectationExplanation {
  playerId: string;
  /** Position in the expected list of the first expected transition that was not met. */
  firstDifference: number;
  /** Engine time of the first difference: the differing actual transition, else the exchange it hangs on, else the check. */
  at: number;
  /** Engine time of the check. */
  checkedAt: number;
  rows: ExplanationRow[];
  /** Rows of the whole side-by-side left out before and after those shown. */
  omitted: { before: number; after: number };
  exchanges: ExplainedExchange[];
  /** Exchanges of the span left out before and after those shown. */
  exchangesOmitted: { before: number; after: number };
  /** Why no exchanges are shown, when none are. */
  exchangesNote?: string;
  /**
   * Set when the transitions were met (or none were expected) and the check failed on this
   * instead: where the player ended (its state or item), or the requests it made. The rows are
   * then every transition since the previous check, and the exchanges lead up to the check.
   */
  subject?: EndSubject;
}

/** What a check whose transitions were met failed on. */
export type EndSubject = 'state' | 'item' | 'requests';
