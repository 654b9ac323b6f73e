/**
 * Stretches of a text that capture masks, as the masking of URLs, header blocks and bodies finds
 * them (`capture-secrets.ts`, `header-secrets.ts`): the text is stored as it came but for them,
 * and what they held is handed to the log as splices (`log/held.ts`).
 */
import type { TextSplice } from './log/index.js';
import { decodeSafely, isSecretField, maskField, SECRET_FIELDS } from '../api/redact.js';
import type { KnownSecrets } from '../security/known-secrets.js';

/** A stretch of a text to mask: `[start, end)` becomes `masked`. */
export interface Stretch {
  start: number;
  end: number;
  masked: string;
}

export type Masked = { text: string; splices: TextSplice[] } | null;

/** The text with its stretches masked (in order, not overlapping), and where each stands in the result. */
export function applyStretches(text: string, stretches: readonly Stretch[]): Masked {
  if (stretches.length === 0) return null;
  let out = '';
  let from = 0;
  const splices: TextSplice[] = [];
  for (const { start, end, masked } of stretches) {
    out += text.slice(from, start);
    splices.push({ at: out.length, length: masked.length, original: text.slice(start, end) });
    out += masked;
    from = end;
  }
  return { text: out + text.slice(from), splices };
}

/** Holds what was found by name as known secrets (a plain loop: this runs on every exchange). */
export function learn(known: KnownSecrets, text: string | null, stretches: readonly Stretch[] | null): void {
  if (text === null || stretches === null) return;
  for (let i = 0; i < stretches.length; i++) known.add(text.slice(stretches[i]!.start, stretches[i]!.end));
}

/** A parameter that may be a secret, anywhere in a URL: most URLs (a player's `?reason=load`) are passed over on this test alone. */
const SECRET_PARAM = new RegExp(`[?&](?:${[...SECRET_FIELDS].join('|')})=`, 'i');

/** The secret `name=value` pairs of `text[from, to)` (a query string or a form), their values as stretches. */
export function pairStretches(text: string, from: number, to: number, into: Stretch[]): Stretch[] {
  for (let at = from; at <= to;) {
    let amp = text.indexOf('&', at);
    if (amp === -1 || amp > to) amp = to;
    const eq = text.indexOf('=', at);
    if (eq !== -1 && eq < amp) {
      const value = decodeSafely(text.slice(eq + 1, amp));
      const name = decodeSafely(text.slice(at, eq));
      if (isSecretField(name, value))
        into.push({ start: eq + 1, end: amp, masked: encodeURIComponent(maskField(name, value)) });
    }
    at = amp + 1;
  }
  return into;
}

/** The secret query parameters of a URL (the fragment is left alone), their values as stretches. */
export function urlStretches(url: string): Stretch[] {
  const query = url.indexOf('?');
  // An escaped name (`client%5Fsecret`) is looked at pair by pair.
  if (query === -1 || (!SECRET_PARAM.test(url) && !url.includes('%', query))) return [];
  const hash = url.indexOf('#', query);
  return pairStretches(url, query + 1, hash === -1 ? url.length : hash, []);
}
