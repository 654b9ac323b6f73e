/**
 * Failure injection as hosts see it (docs/contract/console.md §7 faults row): one rule model for the console's
 * own servers and for the player's HTTP client. Pure types, shared with the renderer.
 */
/** `events` injects at the console's event deliveries, as `player` does in the player's client (docs/events.md). */
export const FAULT_TARGETS = ['login', 'control', 'cloudQueue', 'player', 'events'] as const;
export type FaultTarget = (typeof FAULT_TARGETS)[number];

export interface FaultMatch {
  /** HTTP method, any case. */
  method?: string;
  /** A path, matched whole or as the end of the request path (`/itemWindow`), or a glob with `*`. */
  path?: string;
  /** The `reason` query parameter of GET /itemWindow. */
  reason?: string;
}

export type FaultAction =
  /** Answer with this status: 503 with Retry-After, 403 with X-Rejected-Reason, 404, 500, any code. */
  | { type: 'status'; status: number; retryAfter?: number; rejectedReason?: string; body?: unknown }
  /** Never answer: the client's own timeout ends the request. */
  | { type: 'timeout' }
  /** Reset the connection: an incomplete request. */
  | { type: 'drop' }
  /** Answer normally, this many engine ms late. */
  | { type: 'latency'; ms: number }
  /** A success status with a body that is not valid JSON. */
  | { type: 'malformed' };

export interface FaultRuleInput {
  target: FaultTarget;
  match?: FaultMatch;
  action: FaultAction;
  /** Only the next N matching requests. */
  times?: number;
  /** Each matching request is hit with this probability (0–1)… */
  probability?: number;
  /** …drawn from a generator with this seed, so a run repeats exactly. */
  seed?: number;
  /** A name for people (presets set it). */
  label?: string;
}

export interface FaultRule extends FaultRuleInput {
  id: string;
  match: FaultMatch;
  /** Requests this rule has failed so far. */
  hits: number;
  /** Matching requests it let through (probability). */
  passes: number;
  /** Spent: its `times` are used up; it stays listed, it no longer matches. */
  spent: boolean;
  createdAt: number;
}

/** One request a rule failed, as the traffic log marks it. */
export interface FaultHit {
  ruleId: string;
  label?: string;
  action: FaultAction['type'];
  status?: number;
}
