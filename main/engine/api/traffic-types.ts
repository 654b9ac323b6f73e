/**
 * The traffic log as hosts see it: every exchange at the console's servers and every request a
 * player makes. Pure types, shared with the renderer.
 */
import type { FaultHit } from './fault-types.js';
import type { PlayerViolation } from './player-types.js';

/** `events`: the console's event deliveries to integrations (docs/events.md). Appended: the log stores a target as its index here. */
export const TRAFFIC_TARGETS = ['console', 'login', 'control', 'cloudQueue', 'player', 'events'] as const;
export type TrafficTarget = (typeof TRAFFIC_TARGETS)[number];

/**
 * The header the console's own UI sends on its admin API calls in a browser. Those calls are the
 * UI's plumbing (a read after every event), not traffic anyone integrates with: they are left out
 * of the log, as they are in the desktop app, where the same calls go over IPC. The header alone
 * leaves nothing out: the call must also carry the key the console gave its own page when it
 * served it (docs/contract/console.md §9; see `traffic/console-ui.ts`).
 */
export const CONSOLE_UI_HEADER = 'x-console-ui';

/** How an exchange ended. */
export type TrafficOutcome = 'answered' | 'timeout' | 'dropped' | 'incomplete';

export interface TrafficSummary {
  id: number;
  target: TrafficTarget;
  /** Engine time the request started. */
  at: number;
  /** Wall time the request started. */
  wallAt: number;
  method: string;
  path: string;
  reason: string | null;
  status: number | null;
  /** Wall-clock ms from request to answer. */
  latencyMs: number | null;
  /** 0 for a first try, n for the n-th retry (player requests). */
  retry: number | null;
  fault: FaultHit | null;
  playerId: string | null;
  requestId: string | null;
  outcome: TrafficOutcome;
}

/** The parts of an entry capture may cut to keep it within its size (docs/contract/console.md §9). */
export const TRAFFIC_CUT_PARTS = ['requestHeaders', 'requestBody', 'responseHeaders', 'responseBody'] as const;
export type TrafficCutPart = (typeof TRAFFIC_CUT_PARTS)[number];

/** What capture cut of an entry: each cut part's size as kept and as it came, in bytes. */
export type TrafficCut = Partial<Record<TrafficCutPart, { kept: number; size: number }>>;

export interface TrafficEntry extends TrafficSummary {
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string | null;
  responseHeaders: Record<string, string>;
  responseBody: string | null;
  /** Headers and bodies cut at capture to keep the entry within its size; null: nothing was cut. */
  cut: TrafficCut | null;
  /** Secrets are shown masked unless the entry was asked for with `reveal` and could be revealed. */
  redacted: boolean;
  /**
   * Asked for with `reveal`: whether the secrets are shown. They are masked before the log is
   * stored; only the running console holds them, in memory, for its newest entries. When it no
   * longer does, `revealed` is false and `revealNote` says so.
   */
  revealed: boolean;
  revealNote?: string;
  /** Player transitions this request's answer caused. */
  transitions: { seq: number; playerId: string; from: string; to: string; transition: string; at: number }[];
  /** What this exchange's answer broke of the contract, as the player that made it stored it (docs/contract/console.md §5). */
  violations: PlayerViolation[];
}

/** The most entries one export takes: a HAR file or a repro bundle. */
export const TRAFFIC_EXPORT_MAX = 100_000;

/**
 * What a status filter may say: an exact status (`503`), a class (`2xx`…`5xx`) or `none` (requests
 * without an answer), in any case; empty is no filter (`?status=`), as for the other fields. One
 * pattern for the engine's input check and the UI's field.
 */
/** `incomplete` is `none` as the list says it: the word on an entry with no answer (outsider). */
export const TRAFFIC_STATUS_FILTER_PATTERN =
  '^([0-9]{3}|[1-5][xX][xX]|[nN][oO][nN][eE]|[iI][nN][cC][oO][mM][pP][lL][eE][tT][eE]|)$';

export interface TrafficFilter {
  target?: TrafficTarget;
  reason?: string;
  /** An exact status, a class (`2xx`, `4xx`, `5xx`), or `none` for requests without an answer. */
  status?: string;
  /** Text anywhere in the URL (path and query) or the bodies. */
  text?: string;
  /**
   * One request's exchanges, by its `X-Request-Id`: a player's request and, at the console's own
   * cloud queue server, the same request as it arrived (what a transition's link opens).
   */
  requestId?: string;
}

export interface TrafficSettings {
  /** Entries kept; the oldest are dropped beyond it. */
  retention: number;
  /** Bytes the stored log may take, about: beyond it the oldest segments are dropped, whatever the entry count. */
  retentionBytes: number;
  /** Capture on or off. */
  capture: boolean;
}

/** The byte budget's bounds: below the lower one a single segment (a flush of large bodies) would not fit. */
export const TRAFFIC_RETENTION_BYTES_MIN = 16 * 1024 * 1024;
export const TRAFFIC_RETENTION_BYTES_MAX = 1024 * 1024 * 1024 * 1024;
