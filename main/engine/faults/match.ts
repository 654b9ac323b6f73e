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
  if (pattern.includes('*')) {
    const regex = new RegExp(`^${pattern.split('*').map(escapeRegex).join('.*')}$`);
    return regex.test(path);
  }
  if (path === pattern) return true;
  const suffix = pattern.startsWith('/') ? pattern : `/${pattern}`;
  return path.endsWith(suffix);
}

function escapeRegex(text: string): string {
  return text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
}
