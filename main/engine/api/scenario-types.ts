/**
 * Saved scenarios (issue 6): fault rules, user actions, control commands and clock steps, with
 * the transitions they are expected to cause, run as one and reported as pass or fail. Pure
 * types, shared with the renderer.
 */
import type { ExpectationExplanation } from './expectation-types.js';
import type { FaultRuleInput } from './fault-types.js';
import type { PlayerAction, PlayerMachineState, PlayerTransition } from './player-types.js';
import type { PlaybackState } from './types.js';

export type ScenarioStep =
  /** Adds a fault rule. */
  | { type: 'fault'; rule: FaultRuleInput }
  /** Removes every fault rule. */
  | { type: 'clearFaults' }
  /** A user action at a player, as from its buttons. `expectError`: the player must refuse it. */
  | { type: 'action'; playerId: string; action: PlayerAction; expectError?: boolean }
  /**
   * A control API call with the console's token, as an integration would make it. `${name}` in the
   * path or body is replaced by a saved value or a service URL (`${cloudQueue}`, …); `save` keeps
   * fields of the answer (`{"session": "sessionId"}`) for later steps.
   */
  | { type: 'command'; method: 'GET' | 'POST'; path: string; body?: unknown; expectStatus?: number; save?: Record<string, string> }
  /** Changes the engine clock: speed, and/or a jump that runs every timer due on the way. */
  | { type: 'clock'; speed?: number; advanceMs?: number }
  /**
   * Checks a player: its state now, its item now, and the rows of the transition table it went
   * through (in this order) since the previous check. `state` is the machine's (`SUSPENDED`
   * included) or the wire's (`PLAYBACK_STATE_PAUSED`, as the control API reports it).
   */
  | { type: 'expect'; playerId: string; state?: PlayerMachineState | PlaybackState; itemId?: string; transitions?: string[] };

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
  /** A failed `expect` whose transitions were not met: expected and actual side by side, and the exchanges around the first difference. */
  explanation?: ExpectationExplanation;
}

export interface ScenarioReport {
  scenarioId: string;
  name: string;
  passed: boolean;
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
