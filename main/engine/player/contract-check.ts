/**
 * Checks every cloud queue response against the contract (docs/contract/platform.md §4.3, §7; docs/contract/console.md §4) so that a
 * server's developer sees what to fix. A `malformed` finding makes the response unusable ("a
 * success code with a malformed message", §7.2: an error that is not retried); a `warning` is
 * reported and the player carries on. Each finding names the rule it breaks
 * (`<endpoint>.<what>`, listed in docs/player.md): what a stored violation is filed under.
 */
import { isObject } from '../api/is-object.js';
import type { CloudQueueEndpoint } from '../api/player-types.js';
import type { ContextResponse, ItemWindowResponse, PlaybackPolicies, ReportSettings, VersionResponse } from './wire.js';

export type { CloudQueueEndpoint };

/**
 * The shortest report interval the player takes from any server, the console's own included
 * (docs/contract/console.md §9): 1 ms made it post ~400 reports a second and burn a core. A
 * shorter one is a warning here, and `reportIntervalsOf` raises it where the player adopts it.
 */
export const MIN_REPORT_INTERVAL_MS = 1_000;
const REPORT_INTERVALS = ['sendUpdateAfterMillis', 'periodicIntervalMillis'] as const;

/**
 * Whether the player raises this interval: any under the floor, 0 included (docs/contract/console.md
 * §9: "under 1,000 ms ... clamped to 1,000 ms and a violation"). A server that wants no periodic
 * updates leaves `periodicIntervalMillis` out.
 */
const tooShort = (value: unknown): value is number => typeof value === 'number' && value < MIN_REPORT_INTERVAL_MS;

/** A context's report settings as the player acts on them: every interval at least MIN_REPORT_INTERVAL_MS. */
export function reportIntervalsOf(reports: ReportSettings | undefined): ReportSettings {
  const adopted = { ...reports };
  for (const name of REPORT_INTERVALS) if (tooShort(adopted[name])) adopted[name] = MIN_REPORT_INTERVAL_MS;
  return adopted;
}

export interface Violation {
  endpoint: CloudQueueEndpoint;
  severity: 'malformed' | 'warning';
  /** `<endpoint>.<what>`: the rule broken, the same for every response that breaks it. */
  rule: string;
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
  /**
   * The window the player holds when it asks: under the same queueVersion, its ids name the same
   * tracks, and the queue's ends it flagged stay where they were.
   */
  held?: {
    queueVersion: string;
    items: readonly { id: string; track: { name?: unknown; mediaUrl?: unknown } }[];
    includesBeginningOfQueue?: boolean;
    includesEndOfQueue?: boolean;
  };
}

/**
 * A media URL as it tells a track: without its query and fragment, since a signed URL's signature
 * is refreshed with every window (platform.md §2.4 `play`); undefined when there is none.
 */
export function mediaOf(url: unknown): string | undefined {
  const parts = mediaParts(url);
  return parts && `${parts.origin}${parts.path}`;
}

/**
 * A media URL's origin and path, parsed once (the identity checks compare the path, and show both);
 * a text that is no URL is all path, with no origin. Undefined when there is none.
 */
export function mediaParts(url: unknown): { origin: string; path: string } | undefined {
  if (typeof url !== 'string' || url === '') return undefined;
  if (!URL.canParse(url)) return { origin: '', path: url };
  const { origin, pathname } = new URL(url);
  return { origin, path: pathname };
}

/**
 * A track as an item id's identity is told: its name, and its media's path (`media`, with its
 * host, is what a finding shows). Another host alone is not another track (`otherPlace`).
 */
export interface TrackIdentity {
  name?: string | undefined;
  media?: string | undefined;
  /** The media URL's path alone: a refreshed URL may come from another host of the same CDN. */
  mediaPath?: string | undefined;
}

/** An item's track as the identity checks compare it (this one, and check's item-window.stable-identity). */
export function trackOf(track: { name?: unknown; mediaUrl?: unknown }): TrackIdentity {
  const media = mediaParts(track.mediaUrl);
  return {
    name: typeof track.name === 'string' ? track.name : undefined,
    media: media && `${media.origin}${media.path}`,
    mediaPath: media?.path,
  };
}

/**
 * Whether two tracks differ in what both of them say (a field one leaves out is not compared).
 * Another media path is another track, unless both give the track one name and either the path
 * one file, or no file name to tell by:
 * - a URL signed in its path (a CDN's path token, `/hdnts=exp=…~hmac=…/t/3.mp3`) is refreshed as
 *   one signed in its query is, and failed a server that signs so (audit Y13);
 * - an opaque URL (`https://cdn.example.com/p/<token>`, no file name in it) is issued anew as
 *   the platform lets a `play` answer renew URLs (platform.md §4.3), and failed a server that
 *   issues such, though the track's name never changed (outside audit of 7 December 2026).
 * Both are said (`otherPlace`), never failed: two folders may hold two files of one name. Two
 * files of their own names under one track name (`01.mp3`, then `02.mp3`) are two tracks.
 */
export function otherTrack(was: TrackIdentity, now: TrackIdentity): boolean {
  if (was.name !== undefined && now.name !== undefined && was.name !== now.name) return true;
  if (was.mediaPath === undefined || now.mediaPath === undefined || was.mediaPath === now.mediaPath) return false;
  if (was.name === undefined || was.name !== now.name) return true;
  const file = fileOf(was.mediaPath);
  const nowFile = fileOf(now.mediaPath);
  if (file !== '' && file === nowFile) return false;
  return isFileName(file) && isFileName(nowFile);
}

/** A media path's last segment: the file's name, which a URL signed in its path keeps. */
function fileOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Whether a path's last segment names a file (`01.mp3`, `track.m4a`), not an opaque token. */
function isFileName(segment: string): boolean {
  return /^[^.]+.*\.[A-Za-z0-9]{1,5}$/.test(segment);
}

/** How one track's media moved: another host, another path to the same file, or an opaque URL issued anew. */
export type PlaceChange = 'host' | 'path' | 'opaque';

/**
 * Where two tracks told the same by `otherTrack` have their media, when not at one URL: on two
 * hosts (one file from two hosts of a CDN, or two files under one path in two buckets,
 * `label-a.s3…`, `label-b.s3…`), under two paths that end in one file, or at two URLs that name
 * no file. Only the server knows which, so check warns of it and fails nothing. Null when it is
 * one URL, or another track.
 */
export function otherPlace(was: TrackIdentity, now: TrackIdentity): PlaceChange | null {
  if (was.media === undefined || now.media === undefined || was.media === now.media || otherTrack(was, now))
    return null;
  if (was.mediaPath === now.mediaPath) return 'host';
  return fileOf(was.mediaPath ?? '') === fileOf(now.mediaPath ?? '') ? 'path' : 'opaque';
}

/** `"Name" (https://host/path)`, as a finding names a track. */
export function describeTrack({ name, media }: TrackIdentity): string {
  const named = name !== undefined ? JSON.stringify(name) : 'a track';
  return media !== undefined ? `${named} (${media})` : named;
}

/**
 * Ids of the new window that name another track than in the window held, under the same
 * queueVersion (an edited queue has a new one: an item's track may change with it). A fleet
 * against a server that renamed the track behind every id counted no violation, while `check`
 * failed it on item-window.stable-identity (audit).
 */
function renamedIds(held: NonNullable<WindowRequest['held']>, items: readonly QueueItemLike[]): string[] {
  const before = new Map(held.items.map((item) => [item.id, trackOf(item.track)]));
  const renamed: string[] = [];
  for (const item of items) {
    const was = before.get(item.id);
    if (!was) continue;
    const now = trackOf(item.track);
    if (otherTrack(was, now))
      renamed.push(`${item.id} named ${describeTrack(was)} in the window held and ${describeTrack(now)} in this one`);
  }
  return renamed;
}

/**
 * Where two windows under one queueVersion disagree on the queue's ends: one flagged an end at an
 * item the other holds a neighbour beyond. Check's walk judges the flags on the windows it asks
 * for, up to 20,000 items; a queue past that, or a fleet, has only the player to see it (audit).
 */
function movedEnd(held: NonNullable<WindowRequest['held']>, now: ItemWindowResponse): string | null {
  const sides = [
    { window: held, other: now, said: 'the window held said', holds: 'this one holds' },
    { window: now, other: held, said: 'this window says', holds: 'the window held holds' },
  ];
  for (const end of QUEUE_ENDS)
    for (const { window, other, said, holds } of sides) {
      if (window[end.flag] !== true) continue;
      const edge = (end.step === 1 ? window.items.at(-1) : window.items[0])?.id;
      const at = other.items.findIndex((item) => item.id === edge);
      const next = at === -1 ? undefined : other.items[at + end.step];
      if (next) return `${said} ${end.flag} true, ${end.where}; ${holds} ${next.id} ${end.beyond} ${edge}`;
    }
  return null;
}

/** A queue's two ends as `movedEnd` reads them: the flag, and which way lies beyond it. */
const QUEUE_ENDS = [
  { flag: 'includesEndOfQueue', step: 1, where: 'ending at its last item', beyond: 'after' },
  { flag: 'includesBeginningOfQueue', step: -1, where: 'starting at its first item', beyond: 'before' },
] as const;

type QueueItemLike = { id: string; track: { name?: unknown; mediaUrl?: unknown } };

const isNonEmptyString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

class Findings {
  readonly violations: Violation[] = [];
  constructor(private readonly endpoint: CloudQueueEndpoint) {}
  malformed(rule: string, message: string): void {
    this.violations.push({ endpoint: this.endpoint, severity: 'malformed', rule: `${this.endpoint}.${rule}`, message });
  }
  warn(rule: string, message: string): void {
    this.violations.push({ endpoint: this.endpoint, severity: 'warning', rule: `${this.endpoint}.${rule}`, message });
  }
  get usable(): boolean {
    return !this.violations.some((v) => v.severity === 'malformed');
  }
}

export function checkItemWindow(body: unknown, request: WindowRequest): Checked<ItemWindowResponse> {
  const f = new Findings('itemWindow');
  if (!isObject(body)) {
    f.malformed('body', 'the body is not a JSON object');
    return { violations: f.violations };
  }
  if (typeof body.includesBeginningOfQueue !== 'boolean')
    f.malformed('includesBeginningOfQueue', 'includesBeginningOfQueue must be a boolean');
  if (typeof body.includesEndOfQueue !== 'boolean')
    f.malformed('includesEndOfQueue', 'includesEndOfQueue must be a boolean');
  if (!isNonEmptyString(body.queueVersion)) f.malformed('queueVersion', 'queueVersion must be a non-empty string');
  if (body.contextVersion !== undefined && typeof body.contextVersion !== 'string')
    f.warn('contextVersion', 'contextVersion should be a string');
  if (!Array.isArray(body.items)) {
    f.malformed('items', 'items must be an array');
    return { violations: f.violations };
  }
  const seen = new Set<string>();
  body.items.forEach((item: unknown, i) => {
    if (!isObject(item) || !isNonEmptyString(item.id))
      return f.malformed('item-id', `items[${i}].id must be a non-empty string`);
    if (seen.has(item.id)) f.malformed('unique-ids', `item id ${item.id} appears twice in one window`);
    seen.add(item.id);
    if (!isObject(item.track) || !isNonEmptyString(item.track.mediaUrl))
      return f.malformed('media-url', `items[${i}] (${item.id}) needs track.mediaUrl`);
    const duration = item.track.durationMillis;
    if (duration !== undefined && (typeof duration !== 'number' || !(duration >= 0)))
      f.malformed('duration', `items[${i}].track.durationMillis must be a number ≥ 0`);
    // Optional (docs/contract/console.md §4): absent or null is no override of the queue's.
    if (item.policies !== undefined && item.policies !== null) checkPolicies(f, item.policies, `items[${i}].policies`);
  });
  if (!f.usable) return { violations: f.violations };

  const items = body.items as { id: string }[];
  if (request.itemId !== undefined) {
    const at = items.findIndex((item) => item.id === request.itemId);
    if (at === -1) {
      f.malformed(
        'requested-item',
        `the window does not hold the requested itemId ${request.itemId} (an unknown item must be answered 404)`,
      );
    } else {
      if (at > request.previousWindowSize)
        f.warn(
          'window-size',
          `${at} items before ${request.itemId}, more than previousWindowSize=${request.previousWindowSize}`,
        );
      const after = items.length - 1 - at;
      if (after > request.upcomingWindowSize)
        f.warn(
          'window-size',
          `${after} items after ${request.itemId}, more than upcomingWindowSize=${request.upcomingWindowSize}`,
        );
    }
  } else if (items.length > 0) {
    // No check of where it starts: a first window without itemId may start anywhere (a server that
    // resumes where the listener left off), docs/contract/console.md §8.
    if (items.length - 1 > request.upcomingWindowSize)
      f.warn(
        'window-size',
        `${items.length - 1} items after the first, more than upcomingWindowSize=${request.upcomingWindowSize}`,
      );
  }
  if (request.held && request.held.queueVersion === body.queueVersion) {
    const renamed = renamedIds(request.held, body.items as QueueItemLike[]);
    if (renamed.length > 0)
      f.warn(
        'stable-identity',
        `${renamed[0]}, under the same queueVersion ${body.queueVersion as string}: an item id names one track${renamed.length > 1 ? ` (${renamed.length} ids so)` : ''}`,
      );
    const moved = movedEnd(request.held, body as unknown as ItemWindowResponse);
    if (moved)
      f.warn(
        'queue-ends',
        `${moved}, under the same queueVersion ${body.queueVersion as string}: a queue's ends stay put`,
      );
  }
  return f.usable
    ? { value: body as unknown as ItemWindowResponse, violations: f.violations }
    : { violations: f.violations };
}

/** The policies the player acts on, the queue's or an item's own: a wrong type is malformed. */
function checkPolicies(f: Findings, policies: unknown, where: string): void {
  if (!isObject(policies)) return f.malformed('policies', `${where} must be an object`);
  for (const name of ['canSkip', 'limitedSkips', 'canSkipBack', 'canSeek', 'canSkipToItem', 'notifyUserIntent']) {
    if (policies[name] !== undefined && typeof policies[name] !== 'boolean')
      f.malformed('policies', `${where}.${name} must be a boolean`);
  }
  const ttl = policies.pauseTtlSec;
  if (ttl !== undefined && (typeof ttl !== 'number' || !(ttl >= 0)))
    f.malformed('policies', `${where}.pauseTtlSec must be a number of seconds ≥ 0`);
}

export function checkContext(body: unknown): Checked<ContextResponse> {
  const f = new Findings('context');
  if (!isObject(body)) {
    f.malformed('body', 'the body is not a JSON object');
    return { violations: f.violations };
  }
  if (body.playbackPolicies !== undefined) checkPolicies(f, body.playbackPolicies, 'playbackPolicies');
  else f.warn('no-policies', 'no playbackPolicies: the player assumes every default');
  if (body.reports !== undefined) checkReports(f, body.reports);
  return f.usable ? { value: body as ContextResponse, violations: f.violations } : { violations: f.violations };
}

/** A context's `reports`: each interval a number ≥ 0; one under the floor is a warning. */
function checkReports(f: Findings, reports: unknown): void {
  if (!isObject(reports)) return f.malformed('reports', 'reports must be an object');
  for (const name of REPORT_INTERVALS) {
    const value = reports[name];
    if (value !== undefined && (typeof value !== 'number' || !(value >= 0)))
      f.malformed('reports', `reports.${name} must be a number ≥ 0`);
    else if (tooShort(value)) {
      f.warn(
        'report-interval',
        `reports.${name} is ${value} ms, under the ${MIN_REPORT_INTERVAL_MS.toLocaleString('en-US')} ms the player waits at least; it waits ${MIN_REPORT_INTERVAL_MS.toLocaleString('en-US')} ms`,
      );
    }
  }
}

export function checkVersion(body: unknown): Checked<VersionResponse> {
  const f = new Findings('version');
  if (!isObject(body) || !isNonEmptyString(body.queueVersion)) {
    f.malformed('body', 'the body must be a JSON object with a non-empty string queueVersion');
    return { violations: f.violations };
  }
  return { value: body as unknown as VersionResponse, violations: f.violations };
}

/**
 * What a 2xx answer to POST /timePlayed says (docs/contract/console.md §5): nothing (204, or an
 * empty body), a context whose `reports` and `playbackPolicies` the player takes (later versions of
 * the real service let a server answer so; see docs/reports.md), or something the player cannot
 * read: it stops sending `update` reports for the rest of that track.
 */
export type TimePlayedAnswer =
  | { kind: 'none' }
  | { kind: 'context'; reports?: ReportSettings; playbackPolicies?: Partial<PlaybackPolicies> }
  /** `why`: what it is instead, in a few words ("a body that is not JSON"). */
  | { kind: 'unreadable'; why: string };

/**
 * A context here is a JSON object with `reports` or `playbackPolicies` (what the player takes),
 * each sound. Anything else, `{}` included, is JSON the player cannot read: a warning, never a
 * failure (a report never stops playback).
 */
export function checkTimePlayedAnswer(status: number, text: string): Checked<TimePlayedAnswer> {
  if (text.trim() === '') return { value: { kind: 'none' }, violations: [] };
  const f = new Findings('timePlayed');
  const unreadable = (why: string): Checked<TimePlayedAnswer> => {
    f.warn(
      'answer',
      `status ${status} with ${why}: the player sends no more update reports for the rest of this track (answer 204, or 200 with an empty body or a context)`,
    );
    return { value: { kind: 'unreadable', why }, violations: f.violations };
  };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return unreadable('a body that is not JSON');
  }
  if (!isObject(body) || (body.reports === undefined && body.playbackPolicies === undefined)) {
    return unreadable('JSON that is not a context object (it has neither reports nor playbackPolicies)');
  }
  const inner = new Findings('timePlayed');
  if (body.reports !== undefined) checkReports(inner, body.reports);
  if (body.playbackPolicies !== undefined) checkPolicies(inner, body.playbackPolicies, 'playbackPolicies');
  if (!inner.usable)
    return unreadable(
      `a context the player cannot use (${inner.violations.find((v) => v.severity === 'malformed')!.message})`,
    );
  return {
    value: {
      kind: 'context',
      reports: body.reports as ReportSettings | undefined,
      playbackPolicies: body.playbackPolicies as Partial<PlaybackPolicies> | undefined,
    },
    violations: inner.violations,
  };
}
