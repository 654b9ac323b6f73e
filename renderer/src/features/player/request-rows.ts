/**
 * The player's requests as one row each. A request to the console's own cloud queue server is in
 * the traffic log twice: as the player sent it (target `player`) and as the server got it (target
 * `cloudQueue`), both with the player's X-Request-Id. The workbench folds the two into one row,
 * the player's side first (its retry number, its latency as the player waited), the server's side
 * filling what the player's lacks; a request to another server has the player's side only.
 */
import type { FaultHit } from '@engine-api/fault-types';
import type { TrafficSummary } from '@engine-api/traffic-types';
import type { RequestsShown } from '../../router/search';

export interface RequestRow {
  /** The X-Request-Id, or `entry-<id>` for an entry without one. */
  key: string;
  requestId: string | null;
  /** Engine time the request started (the earlier side's). */
  at: number;
  method: string;
  path: string;
  reason: string | null;
  status: number | null;
  retry: number | null;
  /** The fault that fired, on either side (a player-side rule fails it in the client, a server-side rule at the server). */
  fault: FaultHit | null;
  latencyMs: number | null;
  playerId: string | null;
  /** The traffic entries of the two sides; one of them at least. */
  client: TrafficSummary | null;
  server: TrafficSummary | null;
}

/** The entry a row links to: the player's side, as it is the request the player made. */
export function entryOf(row: RequestRow): number {
  return (row.client ?? row.server)!.id;
}

/**
 * The rows of one player's requests from a stretch of the log (any order), newest first: the
 * entries the player made, and the server's entries that share their request id (or name the
 * player in X-Player-Id). Everything else is left out.
 */
export function foldRequests(entries: readonly TrafficSummary[], playerId: string): RequestRow[] {
  const ids = new Set<string>();
  for (const e of entries) if (e.playerId === playerId && e.target === 'player' && e.requestId) ids.add(e.requestId);
  const rows = new Map<string, RequestRow>();
  for (const e of entries) {
    const mine = e.playerId === playerId || (e.requestId !== null && ids.has(e.requestId));
    if (!mine || (e.target !== 'player' && e.target !== 'cloudQueue')) continue;
    const key = e.requestId ?? `entry-${e.id}`;
    const side: 'client' | 'server' = e.target === 'player' ? 'client' : 'server';
    const row = rows.get(key) ?? emptyRow(key, e.requestId);
    // A retry is a new request with its own id; two entries of one side with one id are unexpected: the newer stands.
    if (!row[side] || row[side].id < e.id) row[side] = e;
    rows.set(key, row);
  }
  return [...rows.values()].map(settle).sort((a, b) => b.at - a.at || entryOf(b) - entryOf(a));
}

function emptyRow(key: string, requestId: string | null): RequestRow {
  return {
    key,
    requestId,
    at: 0,
    method: '',
    path: '',
    reason: null,
    status: null,
    retry: null,
    fault: null,
    latencyMs: null,
    playerId: null,
    client: null,
    server: null,
  };
}

function settle(row: RequestRow): RequestRow {
  const { client, server } = row;
  const first = client ?? server!;
  return {
    ...row,
    at: Math.min(client?.at ?? Infinity, server?.at ?? Infinity),
    method: first.method,
    path: first.path,
    reason: client?.reason ?? server?.reason ?? null,
    // What the player got: a fault in its client answers without the server.
    status: client ? client.status : server!.status,
    retry: client?.retry ?? server?.retry ?? null,
    fault: client?.fault ?? server?.fault ?? null,
    latencyMs: client?.latencyMs ?? server?.latencyMs ?? null,
    playerId: client?.playerId ?? server?.playerId ?? null,
  };
}

/**
 * Which of the rows the strip shows (the address's `requests`): a steadily playing player posts a
 * report every 30 s of play, and those rows pushed the failures QA looks for out of view (outsider).
 */
export const REQUESTS_SHOWN: readonly { value: RequestsShown; label: string }[] = [
  { value: 'all', label: 'All requests' },
  { value: 'failed', label: 'Failed or faulted' },
  { value: 'no-reports', label: 'All but timePlayed' },
];

/** A row QA looks for: no complete answer, a status past 3xx, or a fault rule fired on it (a delay's 200 too). */
export function failedOrFaulted(row: RequestRow): boolean {
  return row.status === null || row.status >= 400 || row.fault !== null;
}

export function shownRows(rows: readonly RequestRow[], shown: RequestsShown): RequestRow[] {
  if (shown === 'failed') return rows.filter(failedOrFaulted);
  if (shown === 'no-reports') return rows.filter((row) => !row.path.split('?')[0]!.endsWith('/timePlayed'));
  return [...rows];
}
