/**
 * Secrets in the traffic log are masked when shown (and exported) unless someone asks to reveal
 * them: bearer and basic credentials, cookies, and the OAuth and queue secrets in bodies, forms,
 * query strings and Location headers. A mask keeps the first four characters, so two entries
 * carrying the same token can still be told apart.
 */
import { CUT_MARK } from './recorder.js';

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-admin-token']);
export const SECRET_FIELDS = new Set([
  'access_token',
  'refresh_token',
  'client_secret',
  'code',
  'code_verifier',
  'password',
  'id_token',
  'httpAuthorization',
  'accessToken',
  'clientSecret',
  'adminToken',
  'refreshToken',
]);

export function mask(value: string): string {
  return value.length <= 4 ? '•••' : `${value.slice(0, 4)}•••`;
}

/** `Bearer abcd…` keeps its scheme. */
function maskCredential(value: string): string {
  const match = /^(\w+)\s+(.+)$/.exec(value);
  return match ? `${match[1]} ${mask(match[2]!)}` : mask(value);
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (SECRET_HEADERS.has(lower)) out[name] = maskCredential(value);
    else if (lower === 'location') out[name] = redactUrl(value);
    else out[name] = value;
  }
  return out;
}

export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  return url.slice(0, query + 1) + redactForm(url.slice(query + 1));
}

function redactForm(form: string): string {
  return form
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = decodeSafely(pair.slice(0, eq));
      return SECRET_FIELDS.has(name) ? `${pair.slice(0, eq)}=${encodeURIComponent(mask(decodeSafely(pair.slice(eq + 1))))}` : pair;
    })
    .join('&');
}

/** A body as text: JSON has its secret fields masked at any depth; a form its secret fields. */
export function redactBody(body: string | null): string | null {
  if (body === null || body === '') return body;
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.stringify(redactJson(JSON.parse(body)));
    } catch {
      // Not whole JSON (a body cut at MAX_BODY_CHARS, a malformed one) or too deep to walk: the
      // secret fields are still found in the text. Never the body as it came.
      return redactJsonText(body);
    }
  }
  return /^[\w.%-]+=/.test(trimmed) ? redactForm(body) : body;
}

function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = SECRET_FIELDS.has(key) && typeof inner === 'string' ? mask(inner) : redactJson(inner);
  return out;
}

const SECRET_FIELD_TEXT = new RegExp(`("(?:${[...SECRET_FIELDS].join('|')})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)("?)`, 'g');

/** Masks `"field": "value"` of the secret fields in JSON text, a value cut off at the end included. */
function redactJsonText(text: string): string {
  // The cut mark stays on show, also when the cut fell inside a secret's value.
  const mark = CUT_MARK.exec(text)?.[0] ?? '';
  const masked = text.slice(0, text.length - mark.length).replace(SECRET_FIELD_TEXT, (_, opening: string, value: string, closing: string) => `${opening}${mask(value)}${closing}`);
  return masked + mark;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
