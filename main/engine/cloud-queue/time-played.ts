/**
 * POST /timePlayed bodies (docs/contract/platform.md §2.3), checked field by field so that a 400 names the field that
 * is wrong (`items[2].positionMillis must be a number, zero or greater`). Unknown fields pass:
 * later versions of the contract may add some.
 */
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

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function parseTimePlayed(body: unknown): ParsedQuery<TimePlayedReport[]> {
  if (!isObject(body)) return { ok: false, field: 'body', message: 'the body must be a JSON object with an items array' };
  const { items } = body;
  if (!Array.isArray(items)) return { ok: false, field: 'items', message: 'items must be an array of reports' };
  if (items.length === 0) return { ok: false, field: 'items', message: 'items must hold at least one report' };
  for (const [index, item] of items.entries()) {
    const at = `items[${index}]`;
    if (!isObject(item)) return { ok: false, field: at, message: `${at} must be an object` };
    for (const [field, valid, expected] of CHECKS) {
      if (!(field in item)) return { ok: false, field: `${at}.${field}`, message: `${at}.${field} is required` };
      if (!valid(item[field])) return { ok: false, field: `${at}.${field}`, message: `${at}.${field} must be ${expected}` };
    }
    if ('skip' in item) {
      const { skip } = item;
      if (!isObject(skip)) return { ok: false, field: `${at}.skip`, message: `${at}.skip must be an object` };
      if (item.type !== 'final') return { ok: false, field: `${at}.skip`, message: `${at}.skip belongs only to a final report` };
      if ('reportId' in skip && !isString(skip.reportId)) {
        return { ok: false, field: `${at}.skip.reportId`, message: `${at}.skip.reportId must be a string` };
      }
    }
  }
  return { ok: true, value: items as TimePlayedReport[] };
}
