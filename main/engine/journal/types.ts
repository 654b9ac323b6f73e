/**
 * What the engine journal holds: every state-changing call, stamped on the engine clock, in the
 * order the calls began. A repro bundle's scenario is built from it; the traffic is only evidence.
 * No secret is kept in clear: a queue token in a control call becomes a reference to its queue.
 */
import type { FaultRule } from '../api/fault-types.js';
import type { QueueItem, QueueView } from '../api/queue-types.js';

/** A command of the command table that changed something (or, for a player, tried to). */
export interface JournaledCommand {
  kind: 'command';
  /** Order the calls began in; entries are read in this order. */
  seq: number;
  /** Engine time the call began. */
  at: number;
  name: string;
  /** The input as the command took it; null when too large to keep (`omitted` says why). */
  input: unknown;
  omitted?: string;
  ok: boolean;
  /** The error's code, when refused. */
  error?: string;
  /** What the bundle needs of the answer: a rule's id, the ids of items made, a trigger's player. */
  result?: { ruleId?: string; itemIds?: string[]; playerId?: string };
  /** Fault commands: the rules after the call, in matching order, with their counts then. */
  rules?: FaultRule[];
  /** Fault commands: rules the call took away, with their counts at that moment. */
  removed?: FaultRule[];
  /** Queue edits: the queue as it was before the edit (absent: too large, or dropped for room). */
  queueBefore?: QueueSnapshot;
  /** Still waiting for its outcome when the journal was read (`ok` and `result` then say nothing). */
  pendingAtExport?: true;
  /** Began while a player's request was under way (as JournaledControlCall's). */
  whileRequestsInFlight?: true;
  requestsEnded?: number;
  requestsCrossed?: number;
  requestsBegun?: Record<string, number>;
  clockRan?: true;
}

/** A control API call, from any sender: the command bar, an integration's token, the guided demo, a scenario. */
export interface JournaledControlCall {
  kind: 'control';
  seq: number;
  at: number;
  method: string;
  path: string;
  /** The body with queue tokens turned into references (`Bearer ${token:<queueId>}`). */
  body?: unknown;
  status: number;
  /** The client id of the token's grant (the console's own, or an integration's). */
  sender: string;
  /** A session the answer named (a session created). */
  sessionId?: string;
  /** Still waiting for its answer when the journal was read (`status` then says nothing). */
  pendingAtExport?: true;
  /**
   * Began while a player's request was under way (a skip sent before the one before it was
   * answered): what it met depended on that request's answer not having come yet.
   */
  whileRequestsInFlight?: true;
  /**
   * How many player requests had ended, engine-wide, when the call began: between two calls made
   * at once, the difference is how many of the first one's requests were answered before the
   * second was made, which its replay lets be answered first.
   */
  requestsEnded?: number;
  /**
   * How many answers had crossed, engine-wide, when the call began (one of a player's requests
   * answered while an earlier one of it was still under way): a replay cannot repeat that order.
   */
  requestsCrossed?: number;
  /**
   * By player, the requests it had begun when the call began: a replay compares what each player
   * asked before a call made while the clock ran (`clockRan`) with what it asked before it then.
   */
  requestsBegun?: Record<string, number>;
  /** The engine clock ran as the call began: a player's timer could fall on either side of it. */
  clockRan?: true;
}

export type JournalEntry = JournaledCommand | JournaledControlCall;

export type QueueSnapshot = Pick<QueueView, 'id' | 'name' | 'container' | 'playbackPolicies' | 'reports'> & {
  items: QueueItem[];
};
