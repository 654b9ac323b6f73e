/**
 * What the player's parts share: its state record (read-only: each part is written by its owner
 * module, context.ts), its dependencies, and the few acts only the player itself performs
 * (dispatching an event through the table, arming and clearing its timers, its machine part,
 * saying that something changed). The effects, flows and ledger are functions of it.
 */
import type { EngineClock } from '../clock/clock.js';
import type { ClientResult, CloudQueueClient, PlayerExchange } from './client.js';
import type { MachinePart, PlayerContext, TimerName, Timers } from './context.js';
import type { Violation } from './contract-check.js';
import type { PlayerEvent, TransitionCause } from './events.js';
import type { RequestRetries } from './request-policies.js';
import type { Failure } from './retry.js';
import type { MachineState } from './states.js';
import type { Transition } from './transitions.js';

export interface TransitionRecord {
  playerId: string;
  groupId: string;
  at: number;
  from: MachineState;
  to: MachineState;
  event: PlayerEvent['type'];
  cause: TransitionCause;
  transition: string;
  /** The request whose answer caused it, for the traffic log's link. */
  requestId?: string;
  detail?: string;
}

export interface PlayerDeps {
  playerId: string;
  groupId: string;
  clock: EngineClock;
  client: CloudQueueClient;
  onTransition?: (record: TransitionRecord) => void;
  /** A response broke the contract: what it broke, and the exchange (with its traffic entry) it came in. */
  onViolations?: (violations: Violation[], exchange: PlayerExchange) => void;
  /** Anything a view shows changed; `saved: false` when nothing of the saved state did (the failing mark). */
  onChange?: (change?: { saved: boolean }) => void;
}

export interface PlayerCore {
  readonly id: string;
  readonly groupId: string;
  readonly ctx: PlayerContext;
  readonly deps: PlayerDeps;
  readonly retries: RequestRetries;
  readonly timers: Timers;
  /** Runs the first matching row of the table; returns it, or undefined when the event is ignored. */
  dispatch(event: PlayerEvent, meta?: { requestId?: string; detail?: string }): Transition | undefined;
  setTimer(name: TimerName, delayMs: number, callback: () => void): void;
  clearTimer(name: TimerName): void;
  /**
   * The player leaves the queue it played, or the requests it made of it: their answers and
   * retries no longer count (the epoch moves on), and a skip waiting for one is refused.
   */
  leaveRequests(why: string): void;
  changed(): void;
  /** The machine part (player.ts owns it): a failure becomes the player's last error. */
  noteError(failure: Failure): void;
  /** A new queue starts clean: no last error. */
  clearError(): void;
  /** What a restart brings back of the machine part (saved.ts). */
  restoreMachine(restored: Partial<Pick<MachinePart, 'state' | 'volume' | 'lastError'>>): void;
  noteViolations(result: ClientResult<unknown>): void;
}
