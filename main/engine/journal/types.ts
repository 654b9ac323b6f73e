/**
 * What the engine journal holds: every state-changing call, stamped on the engine clock, in the
 * order the calls began. A repro bundle's scenario is built from it; the traffic is only evidence.
 * No secret is kept in clear: a queue token in a control call becomes a reference to its queue.
 */
import type { FaultRule } from '../api/fault-types.js';
import type { QueueItem, QueueView } from '../api/queue-types.js';

/** A command of the command table that changed something (or, for a player, tried to). */
export interface JournaledCommand extends RequestsAtBegin {
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
}

/** A control API call, from any sender: the command bar, an integration's token, the guided demo, a scenario. */
export interface JournaledControlCall extends RequestsAtBegin {
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
}

/**
 * The players' requests as a call began (player/requests-in-flight.ts), for a replay to make it
 * where it was made among them (bundles/journal-scenario.ts).
 */
export interface RequestsAtBegin {
  /**
   * Began while a player's request was under way (a skip sent before the one before it was
   * answered): what it met depended on that request's answer not having come yet.
   */
  whileRequestsInFlight?: true;
  /** The ticket the next player request would get: those begun from this call on have it or above. */
  requestsIssued?: number;
  /**
   * Of the requests begun since the first call journaled at this engine time began, how many had
   * ended: between two calls made at once, the difference is the earlier calls' answers that came
   * before the second was made (a request under way from before, an unrelated poll, is not counted).
   */
  answeredAtInstant?: number;
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
