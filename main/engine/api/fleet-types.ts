/**
 * The fleet as hosts see it (docs/fleet.md): what starts one, and
 * the live and final report every host reads. Pure types, shared with the renderer.
 */
import type { FaultRuleInput } from './fault-types.js';

/** A machine state of the player (player/states.ts), spelled out for the renderer. */
export type FleetPlayerState = 'IDLE' | 'BUFFERING' | 'PLAYING' | 'PAUSED' | 'SUSPENDED';
export const FLEET_PLAYER_STATES: readonly FleetPlayerState[] = ['IDLE', 'BUFFERING', 'PLAYING', 'PAUSED', 'SUSPENDED'];

/** A fault rule the fleet switches on at `startMs` of its own engine time, and off `durationMs` later. */
export interface FleetFault {
  rule: FaultRuleInput;
  /** Engine ms after the fleet started; default 0. */
  startMs?: number;
  /** Engine ms it stays on; default: until the fleet ends. */
  durationMs?: number;
}

export interface FleetStartInput {
  players: number;
  /** Without it, each player plays a queue of its own on the console's reference server. `{player}` is the player's number. */
  baseUrl?: string;
  authorization?: string;
  /** Engine ms the fleet plays. */
  durationMs: number;
  /** Engine ms over which the players join, evenly; default 0 (all at once). */
  rampMs?: number;
  /** The fleet's engine clock speed: 1 is real time. Default 1. */
  speed?: number;
  /** Chance per track that the listener skips it, pauses it, seeks in it (0–1). */
  skipRate?: number;
  pauseRate?: number;
  seekRate?: number;
  /** The same seed gives the same listeners. Default 1. */
  seed?: number;
  /** Worker threads the players are split over; default one per core. */
  workers?: number;
  faults?: FleetFault[];
  /** k6-style thresholds (`p99<250ms`, `errors<1%`, `violations==0`), judged at the end. */
  thresholds?: string[];
  /** Share of clean exchanges kept in the traffic log (failures and violations always are). Default 0.01. */
  trafficSampleRate?: number;
}

export type FleetStatus = 'running' | 'finished' | 'stopped';

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** Requests of one endpoint with one reason (itemWindow's `reason`; null for the others). */
export interface FleetEndpointStats {
  endpoint: string;
  reason: string | null;
  requests: number;
  retries: number;
  /** Answers by HTTP status. */
  statuses: Record<string, number>;
  /** Requests with no complete answer: connection failed, reset, timed out. */
  transportErrors: number;
  /**
   * The transport errors by what ended them, as the player said it (`no complete response within
   * 10 s`, `connection failed: ECONNRESET`, …): the FAILURE_CAUSES_KEPT most common, the rest as
   * `other`. Absent with none.
   */
  failures?: Record<string, number>;
  /**
   * Requests whose answer came after redirects the player followed: each hop was a request the
   * server saw, not counted in `requests`. Absent with none.
   */
  redirected?: number;
  /**
   * Requests a fault rule failed or delayed in the players' own client (`--fault`, a rule on
   * target `player`): their statuses and transport errors are counted above too, as the player
   * saw them, and this says how many of them the fleet made itself.
   */
  faulted: number;
}

export interface FleetEndpointReport extends FleetEndpointStats {
  latency: LatencySummary;
}

/** One second of wall time (speed × 1 s of engine time) of the fleet. */
export interface FleetTick {
  /** Engine ms since the fleet started, at the end of the tick. */
  atMs: number;
  /** Wall ms since the fleet started. */
  wallMs: number;
  requests: number;
  retries: number;
  errors: number;
  violations: number;
  byState: Record<FleetPlayerState, number>;
}

export interface FleetViolationStats {
  rule: string;
  endpoint: string;
  /**
   * As the player's contract check says it (docs/player.md): `malformed`, an answer it could not
   * use; `warning`, one it used though it breaks a rule. `violations` counts both.
   */
  severity: 'malformed' | 'warning';
  count: number;
  /** The first one's message. */
  message: string;
  /** One exchange that broke it, kept in the traffic log. */
  sample: {
    trafficId: number | null;
    requestId: string;
    playerId: string;
    method: string;
    url: string;
    status: number | null;
  };
}

export interface FleetThresholdResult {
  expression: string;
  ok: boolean;
  /** The measured value, in the threshold's unit (ms, %, count, per second). */
  actual: number;
  unit: string;
  /**
   * Why it was not judged (the fleet never played: its server unreachable, its setup failed, or
   * it was stopped before its first request); `ok` is then false.
   */
  notJudged?: string;
}

export interface FleetReport {
  id: string;
  status: FleetStatus;
  /** Wall time. */
  startedAt: number;
  finishedAt: number | null;
  options: Omit<FleetStartInput, 'authorization'> & { authorization: string | null };
  /** Said when the speed compresses time: "speed 10: one real second is 10 s of listening". */
  timeNote: string | null;
  /** Anything else the run says about how it ran. */
  notes: string[];
  /** Threads the players played on. */
  workers: number;
  elapsed: { engineMs: number; wallMs: number };
  players: { joined: number; byState: Record<FleetPlayerState, number> };
  totals: {
    requests: number;
    /** Answers that were not 2xx, and requests with no complete answer. */
    errors: number;
    errorRate: number;
    transportErrors: number;
    retries: number;
    violations: number;
    /** Requests per second of wall time (what the server saw). */
    requestsPerSecond: number;
  };
  latency: LatencySummary;
  latencyByEndpoint: Record<string, LatencySummary>;
  /** Wall ms by which the players' engine-clock timers fired late (a probe every 100 ms in each thread). */
  timerLateness: LatencySummary;
  /** Per endpoint and reason, with the latency of that endpoint and reason (docs/fleet.md, "Reports"). */
  endpoints: FleetEndpointReport[];
  series: FleetTick[];
  violations: FleetViolationStats[];
  thresholds: FleetThresholdResult[];
  /** Exchanges the fleet put in the traffic log, and those it left out (sampled, or past its cap). */
  traffic: { logged: number; skipped: number };
  /** Why the fleet could not play: the server could not be reached at all. */
  error: { kind: 'unreachable' | 'setup'; message: string } | null;
  /**
   * `pass` when every threshold held, `fail` when one did not (or the fleet could not reach its
   * server or be set up), null while it plays, with none given, or with none judged (verdict.ts):
   * the report says it, so that a reader of the file alone need not work it out.
   */
  verdict: 'pass' | 'fail' | null;
}

/** A kept fleet in a list: enough to pick one and see whether it held. */
export interface FleetListItem {
  id: string;
  status: FleetStatus;
  players: number;
  /** Wall time. */
  startedAt: number;
  finishedAt: number | null;
  /**
   * `pass` when every threshold held, `fail` when one did not (or the fleet could not reach its
   * server or be set up), null while it plays, with none given, or with none judged (verdict.ts).
   */
  verdict: 'pass' | 'fail' | null;
  /** Why it could not play, if it could not (its `error`'s kind): the list tells it from a threshold failed. */
  errorKind: 'unreachable' | 'setup' | null;
  thresholds: FleetThresholdResult[];
}

export type FleetReportFormat = 'json' | 'junit' | 'html';

export interface FleetReportFile {
  format: FleetReportFormat;
  fileName: string;
  contentType: string;
  content: string;
}
