/**
 * The custom rule form as plain data: what was typed (strings, kept as typed whatever happens),
 * the rule it makes, and where an error belongs. The form checks only what it must to build a
 * rule (a number field holds a number); ranges and the rest are the engine's to refuse, and its
 * message lands on the field its path names.
 */
import { FAULT_RANGES, type FaultAction, type FaultRuleInput, type FaultTarget } from '@engine-api/fault-types';

export type Scope = 'forever' | 'times' | 'probability';

export interface RuleFields {
  target: FaultTarget;
  method: string;
  path: string;
  reason: string;
  action: FaultAction['type'];
  status: string;
  retryAfter: string;
  rejectedReason: string;
  body: string;
  latencyMs: string;
  scope: Scope;
  times: string;
  probability: string;
  seed: string;
  label: string;
}

export type FieldName = keyof RuleFields;
export type FieldErrors = Partial<Record<FieldName, string>>;

export const EMPTY_RULE: RuleFields = {
  target: 'cloudQueue',
  method: '',
  path: '',
  reason: '',
  action: 'status',
  status: '503',
  retryAfter: '',
  rejectedReason: '',
  body: '',
  latencyMs: '1000',
  scope: 'times',
  times: '1',
  probability: '0.5',
  seed: '',
  label: '',
};

const WHOLE = /^\d+$/;

/**
 * A whole number within `range` (the engine's own, FAULT_RANGES), or undefined after saying what it
 * must be: every field out of range is said at once, before anything is sent (audit: the form
 * said one in a first round and the engine the rest, in its own words, in a second).
 */
function whole(
  value: string,
  field: FieldName,
  what: string,
  errors: FieldErrors,
  range?: readonly [number, number],
): number | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  const number = Number(text);
  if (!WHOLE.test(text) || (range && (number < range[0] || number > range[1]))) {
    // Short: it sits under its field, in a row of fields (the label above names the field).
    errors[field] = range
      ? `a whole number, ${range[0].toLocaleString('en-US')}–${range[1].toLocaleString('en-US')}`
      : `${what} must be a whole number`;
    return undefined;
  }
  return number;
}

function required(value: number | undefined, field: FieldName, what: string, errors: FieldErrors): void {
  if (value === undefined && !errors[field]) errors[field] = `${what} is required`;
}

/** A body that reads as JSON is sent as JSON; anything else as the text it is. */
function bodyOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function ruleFromFields(
  f: RuleFields,
): { rule: FaultRuleInput; errors?: undefined } | { rule?: undefined; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const match: FaultRuleInput['match'] = {};
  if (f.method.trim()) match.method = f.method.trim().toUpperCase();
  if (f.path.trim()) match.path = f.path.trim();
  if (f.reason.trim()) match.reason = f.reason.trim();

  let action: FaultAction;
  if (f.action === 'status') {
    const status = whole(f.status, 'status', 'Status code', errors, FAULT_RANGES.status);
    required(status, 'status', 'Status code', errors);
    const retryAfter = whole(f.retryAfter, 'retryAfter', 'Retry-After', errors, FAULT_RANGES.retryAfter);
    action = { type: 'status', status: status ?? 0 };
    if (retryAfter !== undefined) action.retryAfter = retryAfter;
    if (f.rejectedReason.trim()) action.rejectedReason = f.rejectedReason.trim();
    if (f.body.trim()) action.body = bodyOf(f.body);
  } else if (f.action === 'latency') {
    const ms = whole(f.latencyMs, 'latencyMs', 'Latency', errors, FAULT_RANGES.latencyMs);
    required(ms, 'latencyMs', 'Latency', errors);
    action = { type: 'latency', ms: ms ?? 0 };
  } else {
    action = { type: f.action };
  }

  const rule: FaultRuleInput = { target: f.target, match, action };
  if (f.scope === 'times') {
    const times = whole(f.times, 'times', 'N', errors, FAULT_RANGES.times);
    required(times, 'times', 'N', errors);
    if (times !== undefined) rule.times = times;
  } else if (f.scope === 'probability') {
    const text = f.probability.trim();
    const probability = Number(text);
    if (text === '' || !Number.isFinite(probability) || probability < 0 || probability > 1)
      errors.probability = 'Probability must be a number from 0 to 1';
    else rule.probability = probability;
    const seed = whole(f.seed, 'seed', 'Seed', errors, FAULT_RANGES.seed);
    if (seed !== undefined) rule.seed = seed;
  }
  if (f.label.trim()) rule.label = f.label.trim();
  return Object.keys(errors).length ? { errors } : { rule };
}

/** The form field an engine error path (`/action/status`) points at. */
const FIELD_OF_PATH: Record<string, FieldName> = {
  '/target': 'target',
  '/match/method': 'method',
  '/match/path': 'path',
  '/match/reason': 'reason',
  '/action/type': 'action',
  '/action/status': 'status',
  '/action/retryAfter': 'retryAfter',
  '/action/rejectedReason': 'rejectedReason',
  '/action/body': 'body',
  '/action/ms': 'latencyMs',
  '/times': 'times',
  '/probability': 'probability',
  '/seed': 'seed',
  '/label': 'label',
};

export function fieldOfPath(path: string | undefined): FieldName | undefined {
  return path === undefined ? undefined : FIELD_OF_PATH[path];
}
