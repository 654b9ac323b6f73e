/**
 * How traffic entries read at a glance: status classes for colour, outcomes of requests that got
 * no answer, the injected-fault marker's words, bodies pretty-printed, what capture cut, and the
 * filter fields checked before they reach the engine.
 */
import type { FaultHit } from '@engine-api/fault-types';
import { TRAFFIC_STATUS_FILTER_PATTERN, type TrafficFilter, type TrafficSummary } from '@engine-api/traffic-types';

export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'none';

export function statusClass(status: number | null): StatusClass {
  if (status === null || status < 200) return 'none';
  if (status < 300) return '2xx';
  if (status < 400) return '3xx';
  return status < 500 ? '4xx' : '5xx';
}

/** The status cell: the code, or what happened instead of an answer. */
export function statusText(entry: Pick<TrafficSummary, 'status' | 'outcome'>): string {
  if (entry.status !== null) return String(entry.status);
  return entry.outcome === 'answered' ? '—' : entry.outcome;
}

export function faultText(fault: FaultHit): string {
  const what = fault.action === 'status' ? `status ${fault.status}` : fault.action;
  return fault.label ? `injected: ${fault.label} (${what})` : `injected: ${what}`;
}

/** A row as a screen reader says it: what the columns show, the fault marker in words. */
export function rowLabel(
  entry: Pick<TrafficSummary, 'target' | 'method' | 'path' | 'reason' | 'status' | 'outcome' | 'retry' | 'fault'>,
): string {
  return [
    `${entry.target} ${entry.method} ${entry.path}`,
    entry.reason ? `reason ${entry.reason}` : '',
    statusText(entry),
    entry.retry ? `retry ${entry.retry}` : '',
    entry.fault ? faultText(entry.fault) : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** A size as a cut note gives it: KiB, with a decimal below 10. */
export function kib(bytes: number): string {
  const value = bytes / 1024;
  return `${value < 10 ? (Math.round(value * 10) / 10).toString() : Math.round(value).toLocaleString('en-US')} KiB`;
}

/** What capture cut of a part (docs/contract/console.md §9): "cut at 64 KiB of 98 KiB". */
export function cutNote(cut: { kept: number; size: number }): string {
  return `cut at ${kib(cut.kept)} of ${kib(cut.size)}`;
}

/** JSON bodies indented; anything else as it came. */
export function prettyBody(body: string | null): string {
  if (body === null || body === '') return '';
  const trimmed = body.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return body;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/**
 * A form body's fields, decoded, where the headers say it is one (a token request, a sign-in): the
 * body itself stays percent-encoded, as sent and as a mask keeps it a valid form, so a masked code
 * read `W5B957%E2%80%A6+%2843+chars%29` there (audit-ui W10). Null for any other body.
 */
export function formFields(body: string | null, headers: Record<string, string>): [string, string][] | null {
  if (!body) return null;
  const type = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  if (!type || !/^\s*application\/x-www-form-urlencoded\b/i.test(type)) return null;
  const fields = [...new URLSearchParams(body)];
  return fields.length > 0 ? fields : null;
}

export const STATUS_FILTER = new RegExp(TRAFFIC_STATUS_FILTER_PATTERN);

/** The status filter as typed: empty (any), valid, or a message saying what is accepted. */
export function checkStatusFilter(text: string): { ok: true; status?: string } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true };
  if (STATUS_FILTER.test(trimmed)) return { ok: true, status: trimmed.toLowerCase() };
  return { ok: false, message: 'a status (503), a class (2xx, 4xx, 5xx) or none (incomplete)' };
}

/** The filter the engine gets: only the fields that are set, so equal filters share a cache key. */
export function cleanFilter(filter: TrafficFilter): TrafficFilter {
  const clean: TrafficFilter = {};
  if (filter.target) clean.target = filter.target;
  if (filter.reason) clean.reason = filter.reason;
  if (filter.status) clean.status = filter.status;
  if (filter.text) clean.text = filter.text;
  if (filter.requestId) clean.requestId = filter.requestId;
  return clean;
}

export function fileStamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace(/[:T]/g, '-');
}

/** How the detail names the other side of a request: the player's, or the server's that got it. */
export function pairSide(other: Pick<TrafficSummary, 'target'>): string {
  return other.target === 'player' ? 'the player\u2019s side' : 'the server\u2019s side';
}

/**
 * The other side of a request among its exchanges (the same `requestId`): for the player's own
 * entry, the server's; for the server's, the player's. Null when the request went to a server the
 * console does not run, or the other side was dropped.
 */
export function otherSide<T extends Pick<TrafficSummary, 'id' | 'target'>>(
  entry: Pick<TrafficSummary, 'id' | 'target'>,
  exchanges: readonly T[],
): T | null {
  const wantPlayer = entry.target !== 'player';
  return exchanges.find((e) => e.id !== entry.id && (e.target === 'player') === wantPlayer) ?? null;
}
