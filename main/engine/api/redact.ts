/**
 * Which parts of an exchange are secrets, and how a secret is masked: bearer and basic
 * credentials, cookies and API keys in headers, and the OAuth, admin and queue secrets in bodies,
 * forms, query strings and Location headers (docs/contract/console.md §9). Capture masks them
 * before the log is stored (`capture-secrets.ts`); what is shown and exported is masked once more
 * here, for entries a console stored before it masked at capture; copy as curl (`curl.ts`) masks
 * with the same rules. A mask keeps the first four characters, so two entries carrying the same
 * token can still be told apart, and masking a mask changes nothing. Pure, in the API contract, so
 * the renderer's copies mask exactly as the engine does.
 */

export const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-admin-token',
  'x-api-key',
  'api-key',
  'x-auth-token',
  'x-access-token',
]);
export const SECRET_FIELDS = new Set([
  'access_token',
  'refresh_token',
  'client_secret',
  'code',
  'code_verifier',
  'password',
  'id_token',
  'token',
  'api_key',
  'apikey',
  'client_assertion',
  'secret',
  'httpAuthorization',
  'accessToken',
  'clientSecret',
  'adminToken',
  'refreshToken',
  'codeVerifier',
  'idToken',
  'apiKey',
  // A conformance run's `{"baseUrl","authorization"}`: the integrator's own server token.
  'authorization',
]);
/** The names above as compared: a parameter named `API_KEY` or `Token` is one of them. */
const SECRET_NAMES = new Set([...SECRET_FIELDS].map((name) => name.toLowerCase()));

/**
 * An error code (`not_found`, `invalid_grant`) under a field named `code` is not an authorization
 * code: codes the login service issues are random base64url, never lower-case words alone.
 */
const ERROR_CODE = /^[a-z]+(?:_[a-z]+)*$/;

/** Whether a field or parameter of this name holds a secret when it holds `value`. */
export function isSecretField(name: string, value: string): boolean {
  const lower = name.toLowerCase();
  return SECRET_NAMES.has(lower) && !(lower === 'code' && ERROR_CODE.test(value));
}

/** Entries stored before capture noted its cuts end a cut body with this mark. */
export const CUT_MARK = /… \(\d+ more characters not kept\)$/;

/** What a mask ends with: masking a mask changes nothing. */
const MASKED = /•••$/;

export function mask(value: string): string {
  if (MASKED.test(value)) return value;
  return value.length <= 4 ? '•••' : `${value.slice(0, 4)}•••`;
}

/** Fields that hold what a person chose: their first characters are most of them. */
const HUMAN_SECRET = /^pass(word|wd)?$/i;

/**
 * A secret field's value masked: a token keeps its first 4 characters (enough to tell two apart,
 * about 24 of its 256 bits), a password none (4 of a 5-character password are most of it).
 */
export function maskField(name: string, value: string): string {
  return HUMAN_SECRET.test(name) && !MASKED.test(value) ? '•••' : mask(value);
}

/** `Bearer abcd…` keeps its scheme. */
export function maskCredential(value: string): string {
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
  const hash = url.indexOf('#', query);
  const end = hash === -1 ? url.length : hash;
  return url.slice(0, query + 1) + redactForm(url.slice(query + 1, end)) + url.slice(end);
}

export function redactForm(form: string): string {
  return form
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const name = decodeSafely(pair.slice(0, eq));
      const value = decodeSafely(pair.slice(eq + 1));
      return isSecretField(name, value) ? `${pair.slice(0, eq)}=${encodeURIComponent(maskField(name, value))}` : pair;
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

export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value))
    out[key] = typeof inner === 'string' && isSecretField(key, inner) ? maskField(key, inner) : redactJson(inner);
  return out;
}

/** `"field": "value` of a secret field in JSON text (the closing quote may be cut off): opening, field, value, closing. */
export const SECRET_FIELD_TEXT = new RegExp(
  `("(${[...SECRET_FIELDS].join('|')})"\\s*:\\s*")((?:[^"\\\\]|\\\\.)*)("?)`,
  'gi',
);

/** Masks `"field": "value"` of the secret fields in JSON text, a value cut off at the end included. */
function redactJsonText(text: string): string {
  // The cut mark stays on show, also when the cut fell inside a secret's value.
  const mark = CUT_MARK.exec(text)?.[0] ?? '';
  const masked = text
    .slice(0, text.length - mark.length)
    .replace(SECRET_FIELD_TEXT, (whole: string, opening: string, name: string, value: string, closing: string) =>
      isSecretField(name, value) ? `${opening}${maskField(name, value)}${closing}` : whole,
    );
  return masked + mark;
}

export function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
