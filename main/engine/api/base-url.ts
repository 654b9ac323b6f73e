/**
 * What a base URL to check or to play a fleet on may not carry beyond a user name (the CLI's
 * BASE_URL, the admin API's `baseUrl`): the player appends
 * `context`, `itemWindow`, `version` and `timePlayed` to the base URL's path, so a query string or
 * a fragment there is left behind on every request. `check …/v2.3/?tenant=acme` was told "not a
 * cloud queue's base URL" by a server that needed the query, with no word of where it went (audit).
 */
export function baseUrlQueryProblem(url: URL, name = 'BASE_URL'): string | null {
  const extra = url.search ? `a query string (${url.search})` : url.hash ? `a fragment (${url.hash})` : null;
  if (!extra) return null;
  return `${name} must not carry ${extra}: the player appends context, itemWindow, version and timePlayed to its path, and it would be left behind; put what it names in the path, or in the Authorization`;
}
