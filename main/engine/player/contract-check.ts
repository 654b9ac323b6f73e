/**
 * Checks every cloud queue response against the contract (docs/contract/platform.md §4.3, §7; docs/contract/console.md §4) so that a
 * server's developer sees what to fix. A `malformed` finding makes the response unusable ("a
 * success code with a malformed message", §7.2: an error that is not retried); a `warning` is
 * reported and the player carries on.
 */
import type { CloudQueueEndpoint } from '../api/player-types.js';
import type { ContextResponse, ItemWindowResponse, ReportSettings, VersionResponse } from './wire.js';

export type { CloudQueueEndpoint };

/**
 * The shortest report interval the player takes from any server, the console's own included
 * (docs/contract/console.md §9): 1 ms made it post ~400 reports a second and burn a core. A
 * shorter one is a warning here, and `reportIntervalsOf` raises it where the player adopts it.
 */
export const MIN_REPORT_INTERVAL_MS = 1_000;
const REPORT_INTERVALS = ['sendUpdateAfterMillis', 'periodicIntervalMillis'] as const;

/** Whether the player raises this interval: 0 periodic updates is none at all, not a short interval. */
const tooShort = (name: (typeof REPORT_INTERVALS)[number], value: unknown): value is number =>
  typeof value === 'number' && value < MIN_REPORT_INTERVAL_MS && !(name === 'periodicIntervalMillis' && value === 0);

/** A context's report settings as the player acts on them: every interval at least MIN_REPORT_INTERVAL_MS. */
export function reportIntervalsOf(reports: ReportSettings | undefined): ReportSettings {
  const adopted = { ...reports };
  for (const name of REPORT_INTERVALS) if (tooShort(name, adopted[name])) adopted[name] = MIN_REPORT_INTERVAL_MS;
  return adopted;
}

export interface Violation {
  endpoint: CloudQueueEndpoint;
  severity: 'malformed' | 'warning';
  message: string;
}

export interface Checked<T> {
  value?: T;
  violations: Violation[];
}

export interface WindowRequest {
  itemId?: string;
  previousWindowSize: number;
  upcomingWindowSize: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

class Findings {
  readonly violations: Violation[] = [];
  constructor(private readonly endpoint: CloudQueueEndpoint) {}
  malformed(message: string): void {
    this.violations.push({ endpoint: this.endpoint, severity: 'malformed', message });
  }
  warn(message: string): void {
    this.violations.push({ endpoint: this.endpoint, severity: 'warning', message });
  }
  get usable(): boolean {
    return !this.violations.some((v) => v.severity === 'malformed');
  }
}

export function checkItemWindow(body: unknown, request: WindowRequest): Checked<ItemWindowResponse> {
  const f = new Findings('itemWindow');
  if (!isObject(body)) {
    f.malformed('the body is not a JSON object');
    return { violations: f.violations };
  }
  if (typeof body.includesBeginningOfQueue !== 'boolean') f.malformed('includesBeginningOfQueue must be a boolean');
  if (typeof body.includesEndOfQueue !== 'boolean') f.malformed('includesEndOfQueue must be a boolean');
  if (!isNonEmptyString(body.queueVersion)) f.malformed('queueVersion must be a non-empty string');
  if (body.contextVersion !== undefined && typeof body.contextVersion !== 'string') f.warn('contextVersion should be a string');
  if (!Array.isArray(body.items)) {
    f.malformed('items must be an array');
    return { violations: f.violations };
  }
  const seen = new Set<string>();
  body.items.forEach((item: unknown, i) => {
    if (!isObject(item) || !isNonEmptyString(item.id)) return f.malformed(`items[${i}].id must be a non-empty string`);
    if (seen.has(item.id)) f.malformed(`item id ${item.id} appears twice in one window`);
    seen.add(item.id);
    if (!isObject(item.track) || !isNonEmptyString(item.track.mediaUrl)) return f.malformed(`items[${i}] (${item.id}) needs track.mediaUrl`);
    const duration = item.track.durationMillis;
    if (duration !== undefined && (typeof duration !== 'number' || !(duration >= 0))) f.malformed(`items[${i}].track.durationMillis must be a number ≥ 0`);
    // Optional (docs/contract/console.md §4): absent or null is no override of the queue's.
    if (item.policies !== undefined && item.policies !== null) checkPolicies(f, item.policies, `items[${i}].policies`);
  });
  if (!f.usable) return { violations: f.violations };

  const items = body.items as { id: string }[];
  if (request.itemId !== undefined) {
    const at = items.findIndex((item) => item.id === request.itemId);
    if (at === -1) {
      f.malformed(`the window does not hold the requested itemId ${request.itemId} (an unknown item must be answered 404)`);
    } else {
      if (at > request.previousWindowSize) f.warn(`${at} items before ${request.itemId}, more than previousWindowSize=${request.previousWindowSize}`);
      const after = items.length - 1 - at;
      if (after > request.upcomingWindowSize) f.warn(`${after} items after ${request.itemId}, more than upcomingWindowSize=${request.upcomingWindowSize}`);
    }
  } else if (items.length > 0) {
    if (body.includesBeginningOfQueue !== true) f.warn('without itemId the window must start at the first item (includesBeginningOfQueue)');
    if (items.length - 1 > request.upcomingWindowSize) f.warn(`${items.length - 1} items after the first, more than upcomingWindowSize=${request.upcomingWindowSize}`);
  }
  return f.usable ? { value: body as unknown as ItemWindowResponse, violations: f.violations } : { violations: f.violations };
}

/** The policies the player acts on, the queue's or an item's own: a wrong type is malformed. */
function checkPolicies(f: Findings, policies: unknown, where: string): void {
  if (!isObject(policies)) return f.malformed(`${where} must be an object`);
  for (const name of ['canSkip', 'limitedSkips', 'canSkipBack', 'canSeek', 'canSkipToItem', 'notifyUserIntent']) {
    if (policies[name] !== undefined && typeof policies[name] !== 'boolean') f.malformed(`${where}.${name} must be a boolean`);
  }
  const ttl = policies.pauseTtlSec;
  if (ttl !== undefined && (typeof ttl !== 'number' || !(ttl >= 0))) f.malformed(`${where}.pauseTtlSec must be a number of seconds ≥ 0`);
}

export function checkContext(body: unknown): Checked<ContextResponse> {
  const f = new Findings('context');
  if (!isObject(body)) {
    f.malformed('the body is not a JSON object');
    return { violations: f.violations };
  }
  if (body.playbackPolicies !== undefined) checkPolicies(f, body.playbackPolicies, 'playbackPolicies');
  else f.warn('no playbackPolicies: the player assumes every default');
  const reports = body.reports;
  if (reports !== undefined) {
    if (!isObject(reports)) f.malformed('reports must be an object');
    else {
      for (const name of REPORT_INTERVALS) {
        const value = reports[name];
        if (value !== undefined && (typeof value !== 'number' || !(value >= 0))) f.malformed(`reports.${name} must be a number ≥ 0`);
        else if (tooShort(name, value)) {
          f.warn(`reports.${name} is ${value} ms, under the ${MIN_REPORT_INTERVAL_MS.toLocaleString('en-US')} ms the player waits at least; it waits ${MIN_REPORT_INTERVAL_MS.toLocaleString('en-US')} ms`);
        }
      }
    }
  }
  return f.usable ? { value: body as ContextResponse, violations: f.violations } : { violations: f.violations };
}

export function checkVersion(body: unknown): Checked<VersionResponse> {
  const f = new Findings('version');
  if (!isObject(body) || !isNonEmptyString(body.queueVersion)) {
    f.malformed('the body must be a JSON object with a non-empty string queueVersion');
    return { violations: f.violations };
  }
  return { value: body as unknown as VersionResponse, violations: f.violations };
}
