/**
 * A player's request as an `expect` step's `requests` names it: the ones that say how a span went
 * beyond its transitions, those that failed and those that were retries. Retries and their waits
 * change no transition (retry.ts sends them under one), so a bundle whose 503s were taken out
 * replayed with the same transitions and passed (audit). Ordinary successes are left out: a
 * version poll more or less changes nothing a bundle is about.
 */

/** What the line is made of: a traffic entry of the player's own request (target `player`). */
export interface RequestLineSource {
  path: string;
  reason: string | null;
  status: number | null;
  retry: number | null;
}

/** `itemWindow skipNext → 503`, `itemWindow skipNext → 200 (retry 2)`, `version → no answer`; null for a first try answered 2xx. */
export function expectedRequestLine({ path, reason, status, retry }: RequestLineSource): string | null {
  const retried = retry !== null && retry > 0;
  const failed = status === null || status < 200 || status >= 300;
  if (!retried && !failed) return null;
  const endpoint = path.slice(path.lastIndexOf('/') + 1) || path;
  return `${endpoint}${reason ? ` ${reason}` : ''} → ${status ?? 'no answer'}${retried ? ` (retry ${retry})` : ''}`;
}

/** The endpoints a player asks (the last segment of its request's path), and any three-digit status: llhttp reads 600–999 too. */
const REQUEST_LINE =
  /^(?:context|itemWindow|version|timePlayed)(?: [A-Za-z+]+)? → (?:([1-9][0-9][0-9])|no answer)( \(retry [1-9][0-9]*\))?$/;

/**
 * Whether `line` is one `expectedRequestLine` can make: a line outside its grammar, or a first try
 * answered 2xx (never listed), can never be met, so a step naming it fails as if the console had
 * done wrong (audit X8).
 */
export function isRequestLine(line: string): boolean {
  const match = REQUEST_LINE.exec(line);
  if (!match) return false;
  const [, status, retried] = match;
  return !(status !== undefined && status.startsWith('2') && retried === undefined);
}

/** Lines as a step's line or message says them: whole up to `most`, else the count and the first `most`. */
export function requestLines(lines: readonly string[], most = 3): string {
  return lines.length <= most ? lines.join(', ') : `${lines.length}: ${lines.slice(0, most).join(', ')}, …`;
}

/**
 * The first line of `expected` that `actual` does not go through, with the line before it of its
 * own stream; null when every one is met. Lines are matched in order within a stream (one
 * endpoint and reason: `itemWindow skipNext → 503`, then its retries), not across streams: a
 * version poll and a skip that overlap may end in either order, and the log holds them by their
 * start, so a faithful replay read them reversed (review).
 */
export function unmetRequestLine(
  expected: readonly string[],
  actual: readonly string[],
): { line: string; after: string | null } | null {
  const streamOf = (line: string) => line.slice(0, line.indexOf(' → '));
  const next = new Map<string, number>();
  const before = new Map<string, string>();
  for (const line of expected) {
    const stream = streamOf(line);
    let at = next.get(stream) ?? 0;
    while (at < actual.length && actual[at] !== line) at++;
    if (at === actual.length) return { line, after: before.get(stream) ?? null };
    next.set(stream, at + 1);
    before.set(stream, line);
  }
  return null;
}

/**
 * Whether a player's requests, oldest first, begin where a player that began idle begins: with
 * its load's `/context`. When the first is another, the traffic log no longer holds the start (a
 * busy console, a low retention), and what it holds cannot stand for all that was made.
 */
export function beginsWithItsLoad(requests: readonly Pick<RequestLineSource, 'path'>[]): boolean {
  return requests.length === 0 || /\/context$/.test(requests[0]!.path);
}
