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

/** Lines as a step's line or message says them: whole up to `most`, else the count and the first `most`. */
export function requestLines(lines: readonly string[], most = 3): string {
  return lines.length <= most ? lines.join(', ') : `${lines.length}: ${lines.slice(0, most).join(', ')}, …`;
}
