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

/**
 * Why `raw` is no absolute URL, in a few words when the reason is a common one: `check
 * http://127.0.0.1:99999/` was told only that it must be an absolute URL (outsider).
 */
export function unparsedUrlWhy(raw: string): string {
  const port = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(raw)?.[1];
  if (port !== undefined && Number(port) > 65_535) return ` (its port ${port} is past 65535)`;
  if (!/^[a-z][a-z0-9+.-]*:/i.test(raw)) return ' (it has no scheme: start it with http:// or https://)';
  if (/\s/.test(raw)) return ' (it holds a space: write it as %20)';
  return '';
}
