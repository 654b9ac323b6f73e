/**
 * Secrets are masked before an exchange reaches the traffic log (docs/contract/console.md §9):
 * credentials in headers, secret fields of JSON and form bodies, secret query parameters of the
 * URL and of Location headers (`redact.ts` says which). The text is stored as it came but for the
 * masked values (a JSON body is not written anew), and what was masked is handed to the log to
 * hold in memory only (`log/held.ts`), so that "reveal" works while the console runs.
 */
import type { HeaderBlock, HeldParts, NewTrafficEntry, TextSplice } from './log/index.js';
import { decodeSafely, isSecretField, mask, maskCredential, SECRET_FIELD_TEXT, SECRET_FIELDS, SECRET_HEADERS } from '../api/redact.js';

/** A text with stretches masked, and where each stands in the result (for the log to hold). */
class MaskedText {
  private out = '';
  private from = 0;
  readonly splices: TextSplice[] = [];

  constructor(private readonly original: string) {}

  /** Masks `original[start, end)` as `masked`; stretches come in order. */
  replace(start: number, end: number, masked: string): void {
    this.out += this.original.slice(this.from, start);
    this.splices.push({ at: this.out.length, length: masked.length, original: this.original.slice(start, end) });
    this.out += masked;
    this.from = end;
  }

  get text(): string {
    return this.out + this.original.slice(this.from);
  }
}

type Masked = { text: string; splices: TextSplice[] } | null;

/** A parameter that may be a secret, anywhere in a URL: most URLs (a player's `?reason=load`) are passed over on this test alone. */
const SECRET_PARAM = new RegExp(`[?&](?:${[...SECRET_FIELDS].join('|')})=`, 'i');

/** Masks the secret `name=value` pairs of `text[from, to)` (a query string or a form). */
function maskPairs(text: string, from: number, to: number, into: MaskedText): void {
  for (let at = from; at <= to; ) {
    let amp = text.indexOf('&', at);
    if (amp === -1 || amp > to) amp = to;
    const eq = text.indexOf('=', at);
    if (eq !== -1 && eq < amp) {
      const value = decodeSafely(text.slice(eq + 1, amp));
      if (isSecretField(decodeSafely(text.slice(at, eq)), value)) into.replace(eq + 1, amp, encodeURIComponent(mask(value)));
    }
    at = amp + 1;
  }
}

function result(masked: MaskedText): Masked {
  return masked.splices.length > 0 ? { text: masked.text, splices: masked.splices } : null;
}

/** A URL with its secret query parameters masked (the fragment is left alone); null when it has none. */
export function maskUrl(url: string): Masked {
  const query = url.indexOf('?');
  // An escaped name (`client%5Fsecret`) is looked at pair by pair.
  if (query === -1 || (!SECRET_PARAM.test(url) && !url.includes('%', query))) return null;
  const hash = url.indexOf('#', query);
  const masked = new MaskedText(url);
  maskPairs(url, query + 1, hash === -1 ? url.length : hash, masked);
  return result(masked);
}

/** A secret header's line (or a Location's): the name, then the value after the colon. */
const SECRET_HEADER_LINE = new RegExp(`^(${[...SECRET_HEADERS, 'location'].join('|')})[ \\t]*:[ \\t]*([^\\r\\n]*)`, 'gim');

/**
 * A header block with credentials masked and Location's secret parameters; null when it has none.
 * `held`: the masked headers as reads show them (lower-case name, repeated lines joined).
 */
export function maskHeaderBlock(block: HeaderBlock): { block: HeaderBlock; held: Record<string, string> } | null {
  SECRET_HEADER_LINE.lastIndex = 0;
  let match = SECRET_HEADER_LINE.exec(block);
  if (match === null) return null;
  // Built by hand, not with MaskedText: headers are held by value, and this runs on most requests.
  let out = '';
  let from = 0;
  // Only the names SECRET_HEADER_LINE matches are keys. Repeated lines are joined as reads join them.
  const held: Record<string, string> = {};
  let locations: string[] | null = null;
  for (; match !== null; match = SECRET_HEADER_LINE.exec(block)) {
    const name = match[1]!.toLowerCase();
    const raw = match[2]!;
    const value = raw.trim();
    if (name === 'location') (locations ??= []).push(value);
    if (value === '') continue;
    const replacement = name === 'location' ? (maskUrl(value)?.text ?? null) : maskCredential(value);
    if (replacement === null) continue;
    const start = match.index + match[0].length - raw.length;
    out += block.slice(from, start) + replacement;
    from = start + raw.length;
    held[name] = held[name] === undefined ? value : `${held[name]}, ${value}`;
  }
  if (from === 0) return null;
  if (held.location !== undefined) held.location = locations!.join(', ');
  return { block: out + block.slice(from), held };
}

/** A JSON string's text (escapes and all) masked: still a valid JSON string when it was one. */
function maskJsonString(raw: string): string {
  try {
    return JSON.stringify(mask(JSON.parse(`"${raw}"`) as string)).slice(1, -1);
  } catch {
    // Cut inside the value: no escape is left open before the mask.
    return mask(raw).replace(/\\(?:u[0-9a-fA-F]{0,3})?(?=•••$)/, '');
  }
}

/**
 * Bodies found without secrets lately. Reading a 5 kB body for secrets costs about 2 µs, more
 * than storing it; a server that caches its answers (ours caches item windows) sends the same
 * string again, and comparing a string with itself is one step. Large bodies only (a short one
 * reads fast), a few of them (at most CLEAN_BODIES × 64 KiB held).
 */
const CLEAN_BODIES = 8;
const CLEAN_BODY_MIN = 512;
const cleanBodies: string[] = [];
let nextClean = 0;

/** A body with its secrets masked: the secret fields of JSON at any depth (a cut body too), or those of a form; null when it has none. */
export function maskBody(body: string): Masked {
  const remembered = body.length >= CLEAN_BODY_MIN;
  if (remembered && cleanBodies.includes(body)) return null;
  const masked = maskBodyText(body);
  if (masked === null && remembered) cleanBodies[nextClean++ % CLEAN_BODIES] = body;
  return masked;
}

function maskBodyText(body: string): Masked {
  const first = /\S/.exec(body)?.[0];
  const masked = new MaskedText(body);
  if (first === '{' || first === '[') {
    SECRET_FIELD_TEXT.lastIndex = 0;
    for (let match = SECRET_FIELD_TEXT.exec(body); match !== null; match = SECRET_FIELD_TEXT.exec(body)) {
      const [, opening, name, value] = match as unknown as [string, string, string, string];
      if (!isSecretField(name, value)) continue;
      const start = match.index + opening.length;
      masked.replace(start, start + value.length, maskJsonString(value));
    }
  } else if (/^\s*[\w.%-]+=/.test(body)) {
    maskPairs(body, 0, body.length, masked);
  }
  return result(masked);
}

/**
 * Masks the entry's secrets in place; what was masked goes to `held` (for the log to hold in
 * memory), and `masked` notes that the stored entry carries masks.
 */
export function maskEntry(entry: NewTrafficEntry): void {
  let held: HeldParts | null = null;
  const url = maskUrl(entry.url);
  if (url) {
    entry.url = url.text;
    (held ??= {}).url = url.splices;
  }
  const requestHeaders = maskHeaderBlock(entry.requestHeaders);
  if (requestHeaders) {
    entry.requestHeaders = requestHeaders.block;
    (held ??= {}).requestHeaders = requestHeaders.held;
  }
  const requestBody = entry.requestBody === null ? null : maskBody(entry.requestBody);
  if (requestBody) {
    entry.requestBody = requestBody.text;
    (held ??= {}).requestBody = requestBody.splices;
  }
  const responseHeaders = maskHeaderBlock(entry.responseHeaders);
  if (responseHeaders) {
    entry.responseHeaders = responseHeaders.block;
    (held ??= {}).responseHeaders = responseHeaders.held;
  }
  const responseBody = entry.responseBody === null ? null : maskBody(entry.responseBody);
  if (responseBody) {
    entry.responseBody = responseBody.text;
    (held ??= {}).responseBody = responseBody.splices;
  }
  if (held) {
    entry.masked = true;
    entry.held = held;
  }
}
