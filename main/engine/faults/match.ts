/**
 * Whether a request matches a rule: method (any case), path (whole, as the end of the request
 * path on a segment boundary, or a `*` glob), and the `reason` query parameter.
 */
import type { FaultMatch } from '../api/fault-types.js';

export interface RequestFacts {
  method: string;
  /** Path without the query. */
  path: string;
  reason?: string;
}

export function matches(match: FaultMatch, request: RequestFacts): boolean {
  if (match.method && match.method.toUpperCase() !== request.method.toUpperCase()) return false;
  if (match.reason !== undefined && match.reason !== request.reason) return false;
  if (match.path && !pathMatches(match.path, request.path)) return false;
  return true;
}

export function pathMatches(pattern: string, path: string): boolean {
  if (pattern.includes('*')) return globMatches(pattern.split('*'), path);
  if (path === pattern) return true;
  const suffix = pattern.startsWith('/') ? pattern : `/${pattern}`;
  return path.endsWith(suffix);
}

/**
 * `*` (any run of characters) without a regex: the first piece starts the path, the last ends it,
 * and each piece between is taken at its first place after the one before. Taking the earliest
 * place is never wrong with `*` alone, so nothing is tried twice: a regex of `.*`s backtracked
 * (`*a*a*a*a*a*a*a*a*b` against forty `a`s held the engine for seconds per request).
 */
function globMatches(pieces: string[], path: string): boolean {
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (path.length < first.length + last.length || !path.startsWith(first) || !path.endsWith(last)) return false;
  let at = first.length;
  const end = path.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = path.indexOf(piece, at);
    if (found === -1 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
