/**
 * How the traffic log stores headers: as a header block, `Name: value` lines ending in CRLF, as
 * they went over the wire (names in their own case, in order, repeats kept). Capture takes the
 * block Node already built for a response and the raw lines of a request, so a stored exchange
 * costs no header object and no JSON; reads turn a block into the object the API serves.
 */

/** `Name: value\r\n` lines; a response block may start with its status line, which reads skip. */
export type HeaderBlock = string;

/** A block from header fields (the player's client, tests, responses Node has no block for). */
export function headerBlock(
  headers: Readonly<Record<string, string | number | readonly string[] | undefined>>,
): HeaderBlock {
  let block = '';
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    if (typeof value === 'object') for (const each of value) block += `${name}: ${each}\r\n`;
    else block += `${name}: ${value}\r\n`;
  }
  return block;
}

/** A block from Node's `rawHeaders` (name, value, name, value, ...). */
export function rawHeaderBlock(rawHeaders: readonly string[]): HeaderBlock {
  // Added up, not joined: capture encodes the block into the log's segment at once, which
  // flattens the pieces in the one copy it makes anyway (a join copied them once more before).
  let block = '';
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) block += rawHeaders[i]! + ': ' + rawHeaders[i + 1]! + '\r\n';
  return block;
}

/**
 * The headers of a block, by lower-case name as Node gives a request's; a repeated header's
 * values are joined with ", " (one line per Set-Cookie is lost, its values are not).
 */
export function parseHeaderBlock(block: HeaderBlock): Record<string, string> {
  // No prototype: a header called `constructor` or `__proto__` is just a header.
  const headers = Object.create(null) as Record<string, string>;
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0 || line.startsWith('HTTP/')) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const earlier = headers[name];
    headers[name] = earlier === undefined ? value : `${earlier}, ${value}`;
  }
  return headers;
}
