/**
 * Report items as the cloud queue version its base URL names asks for them
 * (docs/contract/console.md §5; what the public docs of each version add, and where the console
 * differs: docs/reports.md).
 * v2.0 is docs/contract/platform.md §2.3. Beyond it the player sends:
 * - from v2.1, `contextVersion`: the context it holds when it reports;
 * - from v2.2, `actions` in place of v2.0's `skip`: `[{"skip":[{"positionMillis"}]}]` on the final of
 *   a track a skip ended, `[{"pause":[{"positionMillis"}]}]` on the update a pause sends
 *   (`sendPlaybackActions`);
 * - from v2.3, `reportId`: one id for every report of one playback of an item.
 * v2.3's `error` (a playback the speaker could not start or go on with) is never sent: the
 * simulated player's audio never fails. A base URL that names no version, or one before v2.1, gets
 * v2.0's fields; one after v2.3, v2.3's (the newest the public docs describe).
 */
import type { PlaybackReport } from './wire.js';

export interface ReportAction {
  positionMillis: number;
}

export type ReportActionName = 'skip' | 'pause';

/** A report item of any version: v2.0's fields and those later versions add. */
export interface ReportItem extends PlaybackReport {
  contextVersion?: string;
  actions?: Partial<Record<ReportActionName, ReportAction[]>>[];
  reportId?: string;
}

/** What a report knows beyond v2.0's fields, each sent from the version that has it. */
export interface ReportExtras {
  contextVersion?: string;
  reportId: string;
  /** The user action the report is about: a skip (a final), a pause (an update). */
  action?: ReportActionName;
}

/** The minor version (0 for v2.0 … 3 for v2.3) of the last `v<major>.<minor>` segment of the base URL's path. */
export function reportVersionOf(queueBaseUrl: string): number {
  return namedVersionOf(queueBaseUrl) ?? 0;
}

/** As reportVersionOf, but null where the base URL's path names no version at all. */
export function namedVersionOf(queueBaseUrl: string): number | null {
  let path: string;
  try {
    path = new URL(queueBaseUrl).pathname;
  } catch {
    return null;
  }
  const named = path
    .split('/')
    .map((segment) => /^v(\d+)\.(\d+)$/i.exec(segment))
    .filter((match) => match !== null)
    .at(-1);
  if (!named) return null;
  const major = Number(named[1]);
  if (major < 2) return 0;
  return major > 2 ? 3 : Math.min(3, Number(named[2]));
}

/** Base URLs already read by reportVersionOf: a player reports to the same one every minute or so. */
const versionsOf = new WeakMap<{ queueBaseUrl: string }, number>();

/** reportVersionOf of a queue's target, read once per target (a new base URL comes with a new target). */
export function reportVersionOfTarget(target: { readonly queueBaseUrl: string }): number {
  let version = versionsOf.get(target);
  if (version === undefined) versionsOf.set(target, (version = reportVersionOf(target.queueBaseUrl)));
  return version;
}

/** `report` (v2.0's fields, `skip` on the final a skip ended) as `version` (see reportVersionOf) sends it. */
export function reportForVersion(report: PlaybackReport, version: number, extras: ReportExtras): ReportItem {
  // From v2.2 `skip` is left out as the item is made, not deleted after: `delete` turns an object
  // into a dictionary, which JSON.stringify then writes two to three times slower.
  const { skip, ...fields } = report;
  const item: ReportItem = version >= 2 || skip === undefined ? fields : { ...fields, skip };
  if (version >= 1 && extras.contextVersion !== undefined) item.contextVersion = extras.contextVersion;
  if (version >= 2 && extras.action) item.actions = [{ [extras.action]: [{ positionMillis: report.positionMillis }] }];
  if (version >= 3) item.reportId = extras.reportId;
  return item;
}
