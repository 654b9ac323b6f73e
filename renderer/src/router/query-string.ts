/**
 * The address's query as plain `key=value` pairs, the way people, the engine and old links write
 * it (`#/traffic?entry=12&request=3f2c…`), not the router's default JSON encoding, which would
 * quote a string that looks like a number (`queue=%2242%22`). Every value is read as a string;
 * the area's schema (search.ts) turns it into what it means.
 */

export function parseQuery(query: string): Record<string, string> {
  const result: Record<string, string> = {};
  // The first value of a key wins: `?entry=1&entry=2` names one entry, not a list.
  for (const [key, value] of new URLSearchParams(query.startsWith('?') ? query.slice(1) : query))
    if (!(key in result)) result[key] = value;
  return result;
}

/** Leaves out undefined and null; keeps an empty string (`integration=`: every card folded). */
export function stringifyQuery(search: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null) continue;
    params.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}
