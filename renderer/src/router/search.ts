/**
 * What each area keeps in its address: everything a user selects or filters, so a reload, a
 * bookmark or a link in a bug report opens the same place (`#/traffic?target=player&entry=12`).
 * Each schema takes what the address holds (strings, or the values a link passed) and keeps only
 * what it can use: a value that cannot be meant (`entry=abc`, `status=6xx`, `target=mars`) is
 * dropped, so the area opens as if it were not given rather than failing.
 */
import {
  TRAFFIC_STATUS_FILTER_PATTERN,
  TRAFFIC_TARGETS,
  type TrafficFilter,
  type TrafficTarget,
} from '@engine-api/traffic-types';

/**
 * What a schema reads. Its parameter is typed as its result, so that links and navigate() are
 * checked against it (`search: { entry: 12 }`), but what comes from the address is anything, and
 * the schema reads it as such.
 */
type Raw = Record<string, unknown>;

/** Longer than any id or filter the console makes (the engine's own bound on a text filter): a pasted page of text is not an id. */
const MAX_LENGTH = 500;
/** The engine's bound on an X-Request-Id filter. */
const MAX_REQUEST_ID = 200;

/** A non-empty string, as given (a number in the address, `queue=42`, is still a string id). */
function text(value: unknown, max = MAX_LENGTH): string | undefined {
  const s = typeof value === 'number' ? String(value) : value;
  return typeof s === 'string' && s !== '' && s.length <= max ? s : undefined;
}

/** A whole number from 1 up (traffic entry ids and transition numbers start at 1). */
function positiveInt(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

function oneOf<T extends string>(values: readonly T[], value: unknown): T | undefined {
  return values.find((v) => v === value);
}

/**
 * Leaves out the keys that are undefined: the engine's filter is a cache key and a command input.
 * (A schema's own result keeps them: the router lays it over the raw query, and an undefined key
 * is what hides a raw value the schema refused.)
 */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

// ── Traffic ─────────────────────────────────────────────────────────────────────────────────

/** The `reason` values a player sends on GET /itemWindow (docs/contract/platform.md §2.4, §4.3); the filter offers these. */
export const TRAFFIC_REASONS = [
  'load',
  'pause',
  'play',
  'queueCompleted',
  'refresh',
  'resume',
  'skipNext',
  'skipPrev',
  'skipToItem',
  'load+queueCompleted',
] as const;

const STATUS_FILTER = new RegExp(TRAFFIC_STATUS_FILTER_PATTERN);

export interface TrafficSearch {
  target?: TrafficTarget;
  reason?: string;
  /** An exact status, a class (`4xx`) or `none`, lower case. */
  status?: string;
  /** Text in the URL or the bodies. */
  text?: string;
  /** One request's exchanges, by its X-Request-Id (a transition's link on the Player page). */
  request?: string;
  /** The entry open in the detail pane (a violation's or a verdict's link). */
  entry?: number;
}

export function trafficSearch(given: TrafficSearch): TrafficSearch {
  const raw = given as Raw;
  const status = text(raw.status)?.trim().toLowerCase();
  return {
    target: oneOf(TRAFFIC_TARGETS, raw.target),
    reason: oneOf(TRAFFIC_REASONS, raw.reason),
    status: status && STATUS_FILTER.test(status) ? status : undefined,
    text: text(raw.text),
    request: text(raw.request, MAX_REQUEST_ID)?.trim() || undefined,
    entry: positiveInt(raw.entry),
  };
}

/** The engine's filter for a traffic address: only the fields that are set. */
export function trafficFilterOf(search: TrafficSearch): TrafficFilter {
  return defined({
    target: search.target,
    reason: search.reason,
    status: search.status,
    text: search.text,
    requestId: search.request,
  });
}

/** The address fields of an engine filter (the inverse of trafficFilterOf). */
export function trafficSearchOf(filter: TrafficFilter): Omit<TrafficSearch, 'entry'> {
  return trafficSearch({
    target: filter.target,
    reason: filter.reason,
    status: filter.status,
    text: filter.text,
    request: filter.requestId,
  });
}

// ── Player ──────────────────────────────────────────────────────────────────────────────────

/** Which of a player's requests its strip shows; `all` is the address without the field. */
export type RequestsShown = 'all' | 'failed' | 'no-reports';

export interface PlayerSearch {
  player?: string;
  /** A transition to mark and scroll into view (the traffic log's links). */
  transition?: number;
  requests?: Exclude<RequestsShown, 'all'>;
}

export function playerSearch(given: PlayerSearch): PlayerSearch {
  const raw = given as Raw;
  const player = text(raw.player);
  // A transition is a player's: without one it marks nothing.
  return {
    player,
    transition: player ? positiveInt(raw.transition) : undefined,
    requests: oneOf(['failed', 'no-reports'] as const, raw.requests),
  };
}

// ── Queues ──────────────────────────────────────────────────────────────────────────────────

export interface QueuesSearch {
  queue?: string;
}

export function queuesSearch(given: QueuesSearch): QueuesSearch {
  const raw = given as Raw;
  return { queue: text(raw.queue) };
}

// ── OAuth ───────────────────────────────────────────────────────────────────────────────────

export interface OAuthSearch {
  /** The integration unfolded; empty when the user folded them all (absent: the page's default). */
  integration?: string;
  /** The flow the inspector shows. */
  flow?: string;
}

export function oauthSearch(given: OAuthSearch): OAuthSearch {
  const raw = given as Raw;
  return { integration: raw.integration === '' ? '' : text(raw.integration), flow: text(raw.flow) };
}

// ── Faults ──────────────────────────────────────────────────────────────────────────────────

export interface FaultsSearch {
  /** The saved scenario open beside the list. */
  scenario?: string;
}

export function faultsSearch(given: FaultsSearch): FaultsSearch {
  const raw = given as Raw;
  return { scenario: text(raw.scenario) };
}

// ── Check a server ──────────────────────────────────────────────────────────────────────────

export interface ConformanceSearch {
  /** The run open (absent: the newest). */
  run?: string;
}

export function conformanceSearch(given: ConformanceSearch): ConformanceSearch {
  const raw = given as Raw;
  return { run: text(raw.run) };
}

// ── Fleet ───────────────────────────────────────────────────────────────────────────────────

export interface FleetSearch {
  /** The fleet shown (absent: only the form). */
  fleet?: string;
}

export function fleetSearch(given: FleetSearch): FleetSearch {
  const raw = given as Raw;
  return { fleet: text(raw.fleet) };
}

// ── API ─────────────────────────────────────────────────────────────────────────────────────

export type ApiSearch = Record<string, never>;

export function apiSearch(): ApiSearch {
  return {};
}

/** Each area's address fields. */
export interface AreaSearch {
  oauth: OAuthSearch;
  queues: QueuesSearch;
  player: PlayerSearch;
  traffic: TrafficSearch;
  faults: FaultsSearch;
  api: ApiSearch;
  conformance: ConformanceSearch;
  fleet: FleetSearch;
}
