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

/** The earlier rule that takes a rule's requests. */
export interface FaultShadow {
  id: string;
  label: string | null;
}

/**
 * What a rule will do, given the rules before it (faults/shadow.ts): `full`, an earlier rule
 * that always acts takes every request it matches, so it never fires (`shadowedBy` names it);
 * `delayed`, an earlier `times` rule takes the next few first; `partial`, an earlier rule takes
 * the requests both match (said as "may", never as certain).
 */
export type FaultShadowKind = 'full' | 'delayed' | 'partial';

/** A rule as `faults.list` and `faults.changed` show it: computed on every change, never stored. */
export interface FaultRuleView extends FaultRule {
  shadowedBy: FaultShadow | null;
  shadow: FaultShadowKind | null;
  /** The shadow in words, for people; null when nothing stands in the rule's way. */
  warning: string | null;
}

/**
 * The player requests "Trigger now" can send at once (`players.trigger`), each as the player
 * would send it on its own: `refresh` as refreshCloudQueue does (GET /itemWindow reason=refresh),
 * `nextWindow` as the background Next Window request (the same request, from the player's own
 * timer), `versionPoll` (GET /version, otherwise every 5 or 10 engine minutes), `context`
 * (GET /context), and the user's `skipNext`, `skipPrev`, `pause` and `play` at the player.
 */
export const TRIGGER_REQUESTS = [
  'refresh',
  'nextWindow',
  'versionPoll',
  'context',
  'skipNext',
  'skipPrev',
  'pause',
  'play',
] as const;
export type TriggerRequest = (typeof TRIGGER_REQUESTS)[number];

/** What a trigger sent. */
export interface TriggerResult {
  playerId: string;
  request: TriggerRequest;
  /** The request as the traffic log shows it, e.g. `GET /itemWindow?reason=refresh`. */
  sent: string;
  /** What to expect of it: who waits for its answer, and how it is retried. */
  note: string;
  /** For `faults.trigger`: the rule the request was picked for. */
  ruleId?: string;
}

/**
 * The ranges a fault rule's numbers take (the command table's schema reads them, and the Faults
 * area's form checks them before anything is sent, so every field out of range is said at once).
 */
export const FAULT_RANGES = {
  /** A final status: a 1xx is an interim answer, and the client would wait on for the real one. */
  status: [200, 599],
  retryAfter: [0, 86_400],
  latencyMs: [0, 3_600_000],
  times: [1, 1_000_000],
  seed: [0, 4_294_967_295],
} as const satisfies Record<string, readonly [number, number]>;
