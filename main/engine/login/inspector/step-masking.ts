/**
 * The flow inspector never holds a secret (docs/contract/console.md §9): every parameter named like
 * one (`client_secret`, `code`, `code_verifier`, tokens, passwords; `isSecretParam`) is masked in a
 * step before it is stored, and again when a step is read, so that steps recorded by an older
 * console are shown masked too. Masking is idempotent: a masked value is never masked twice.
 *
 * By value too, before it is stored (`maskKnownSecrets`): a secret the console issued or holds is
 * masked wherever a client put it, as the traffic log masks it. A refresh token sent as an
 * authorize request's `state`, or a client secret in an API call's query, was stored in clear.
 */
import type { FlowRequestBody, FlowStepDetail } from '../../api/oauth-types.js';
import { mask } from '../../api/redact.js';
import type { KnownSecrets } from '../../security/known-secrets.js';
import { clip, type Params } from '../params.js';
import { isSecretParam, maskSecret, maskSecretParams } from '../secrets.js';

const FORM = 'application/x-www-form-urlencoded';
/** A step's body stays small whatever a client sends. */
const MAX_BODY_CHARS = 4_096;

/**
 * A form as it was sent (its order, its repeats), for a step's `requestBody`: every value of a
 * parameter named like a secret masked, and the CSRF token of a sign-in form too (it is a
 * sign-in's secret, though not named like one). Masked values are written for reading.
 */
export function formBody(form: Params): FlowRequestBody | undefined {
  if (form.entries.length === 0) return undefined;
  const text = form.entries
    .map(
      ([name, value]) =>
        `${encodeURIComponent(name)}=${isBodySecret(name) ? maskSecret(value) : encodeURIComponent(value)}`,
    )
    .join('&');
  return { contentType: FORM, text: clip(text, MAX_BODY_CHARS) };
}

function isBodySecret(name: string): boolean {
  return isSecretParam(name) || name === 'csrf';
}

/** A stored form body masked again on reading (idempotent), as every step is. */
function maskBody(body: FlowRequestBody): FlowRequestBody {
  if (body.contentType !== FORM) return body;
  const text = body.text
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = decode(pair.slice(0, eq));
      return isBodySecret(name) ? `${pair.slice(0, eq)}=${maskSecret(decode(pair.slice(eq + 1)))}` : pair;
    })
    .join('&');
  return { ...body, text };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

export function maskStep<T extends { summary: string; detail: FlowStepDetail }>(step: T): T {
  return { ...step, summary: maskSecretParams(step.summary), detail: maskDetail(step.detail) };
}

function maskDetail(detail: FlowStepDetail): FlowStepDetail {
  switch (detail.kind) {
    case 'authorize':
      return { ...detail, params: maskParams(detail.params) };
    case 'token':
      return {
        ...detail,
        params: maskParams(detail.params),
        ...(detail.requestBody ? { requestBody: maskBody(detail.requestBody) } : {}),
      };
    case 'login':
    case 'consent':
      return detail.requestBody ? { ...detail, requestBody: maskBody(detail.requestBody) } : detail;
    case 'navigation':
      return { ...detail, url: maskSecretParams(detail.url) };
    case 'callback':
      return {
        ...detail,
        url: maskSecretParams(detail.url),
        ...(detail.code !== undefined ? { code: maskSecret(detail.code) } : {}),
      };
    case 'redirect':
      return {
        ...detail,
        location: maskSecretParams(detail.location),
        ...(detail.code !== undefined ? { code: maskSecret(detail.code) } : {}),
      };
    default:
      return detail;
  }
}

function maskParams(params: Record<string, string[]>): Record<string, string[]> {
  // Own entries only, into a Map: a parameter named `__proto__` is a parameter like any other.
  const masked = new Map<string, string[]>();
  for (const [name, values] of Object.entries(params))
    masked.set(name, isSecretParam(name) ? values.map(maskSecret) : values);
  return Object.fromEntries(masked);
}

/**
 * Every known secret in the step's text masked, wherever it stands (summary, URLs, parameters,
 * bodies). Looked for first and copied only when found: every token exchange records a step.
 */
export function maskKnownSecrets<T extends { summary: string; detail: FlowStepDetail }>(
  step: T,
  known: KnownSecrets,
): T {
  if (known.size === 0 || !(holdsKnown(step.summary, known) || holdsKnown(step.detail, known))) return step;
  return { ...step, summary: maskIn(step.summary, known), detail: maskAll(step.detail, known) as FlowStepDetail };
}

function holdsKnown(value: unknown, known: KnownSecrets): boolean {
  if (typeof value === 'string') return known.find(value).length > 0;
  if (Array.isArray(value)) return value.some((item) => holdsKnown(item, known));
  if (typeof value !== 'object' || value === null) return false;
  for (const item of Object.values(value)) if (holdsKnown(item, known)) return true;
  return false;
}

function maskAll(value: unknown, known: KnownSecrets): unknown {
  if (typeof value === 'string') return maskIn(value, known);
  if (Array.isArray(value)) return value.map((item) => maskAll(item, known));
  if (typeof value !== 'object' || value === null) return value;
  // Own entries into a Map: a parameter named `__proto__` is a parameter like any other.
  const masked = new Map<string, unknown>();
  for (const [name, item] of Object.entries(value)) masked.set(name, maskAll(item, known));
  return Object.fromEntries(masked);
}

function maskIn(text: string, known: KnownSecrets): string {
  const found = known.find(text);
  if (found.length === 0) return text;
  let out = '';
  let from = 0;
  for (const { start, end } of found) {
    out += text.slice(from, start) + mask(text.slice(start, end));
    from = end;
  }
  return out + text.slice(from);
}
