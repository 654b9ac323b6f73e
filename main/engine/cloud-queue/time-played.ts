/**
 * POST /timePlayed bodies (docs/contract/platform.md §2.3), checked field by field so that a 400 names the field that
 * is wrong (`items[2].positionMillis must be a number, zero or greater`). Unknown fields pass:
 * later versions of the contract may add some.
 *
 * Capped per request (docs/contract/console.md §9): the body's bytes (the route's body limit, a
 * 413), its reports and each report's size (a 400), every cap named in the answer. Each report is
 * stored, so without caps 100 posts of 1 MB added 130 MB on disk; a queue keeps its newest
 * reports only (see the repository).
 */
import { isObject } from '../api/is-object.js';
import type { TimePlayedReport } from '../api/queue-types.js';
import type { ParsedQuery } from './item-window.js';

type Check = [field: keyof TimePlayedReport & string, valid: (value: unknown) => boolean, expected: string];

const isString = (value: unknown) => typeof value === 'string';
const isId = (value: unknown) => typeof value === 'string' && value.length > 0;
const isMillis = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;

const CHECKS: readonly Check[] = [
  ['id', isId, 'a non-empty string'],
  ['mediaUrl', isString, 'a string'],
  ['queueVersion', isString, 'a string'],
  ['durationPlayedMillis', isMillis, 'a number, zero or greater'],
  ['timeSincePlaybackMillis', isMillis, 'a number, zero or greater'],
  ['positionMillis', isMillis, 'a number, zero or greater'],
  ['positionMillisAtSegmentStart', isMillis, 'a number, zero or greater'],
  ['type', (value) => value === 'final' || value === 'update', '"final" or "update"'],
];

/** The largest POST /timePlayed body: 100 reports of a few hundred bytes each take a quarter of it. */
export const MAX_TIME_PLAYED_BODY_BYTES = 128 * 1024;
/** Reports per POST: a player sends one or two at a time, a few more after a time offline. */
export const MAX_REPORTS_PER_POST = 100;
/** One report as JSON: its fields take about 300 bytes; room for fields later versions add. */
export const MAX_REPORT_BYTES = 4 * 1024;

export function parseTimePlayed(body: unknown): ParsedQuery<TimePlayedReport[]> {
  if (!isObject(body))
    return { ok: false, field: 'body', message: 'the body must be a JSON object with an items array' };
  const { items } = body;
  if (!Array.isArray(items)) return { ok: false, field: 'items', message: 'items must be an array of reports' };
  if (items.length === 0) return { ok: false, field: 'items', message: 'items must hold at least one report' };
  if (items.length > MAX_REPORTS_PER_POST) {
    return {
      ok: false,
      field: 'items',
      message: `items holds ${items.length} reports, more than the ${MAX_REPORTS_PER_POST} one request may carry; send them in several`,
    };
  }
  for (const [index, item] of items.entries()) {
    const at = `items[${index}]`;
    if (!isObject(item)) return { ok: false, field: at, message: `${at} must be an object` };
    for (const [field, valid, expected] of CHECKS) {
      if (!(field in item)) return { ok: false, field: `${at}.${field}`, message: `${at}.${field} is required` };
      if (!valid(item[field]))
        return { ok: false, field: `${at}.${field}`, message: `${at}.${field} must be ${expected}` };
    }
    if ('skip' in item) {
      const { skip } = item;
      if (!isObject(skip)) return { ok: false, field: `${at}.skip`, message: `${at}.skip must be an object` };
      if (item.type !== 'final')
        return { ok: false, field: `${at}.skip`, message: `${at}.skip belongs only to a final report` };
      if ('reportId' in skip && !isString(skip.reportId)) {
        return { ok: false, field: `${at}.skip.reportId`, message: `${at}.skip.reportId must be a string` };
      }
    }
    // Last: the fields are known to be sound, so only the unknown ones can make it large.
    const bytes = Buffer.byteLength(JSON.stringify(item));
    if (bytes > MAX_REPORT_BYTES)
      return {
        ok: false,
        field: at,
        message: `${at} takes ${bytes} bytes as JSON, more than the ${MAX_REPORT_BYTES} a report may`,
      };
  }
  return { ok: true, value: items as TimePlayedReport[] };
}
