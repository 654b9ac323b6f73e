/**
 * A stored entry as the API shows it: secrets masked unless revealed, and revealed only as far as
 * the running console still holds them (docs/contract/console.md §9: the log on disk never had
 * them in clear). When it does not, the entry says so rather than pass masks off as secrets.
 */
import { groupedDigits } from '../api/grouped-digits.js';
import type { TrafficEntry } from '../api/traffic-types.js';
import { HELD_ENTRIES, type StoredTrafficEntry } from './log/index.js';
import { redactBody, redactHeaders, redactUrl } from '../api/redact.js';

export const REVEAL_GONE = `The secrets of this entry are no longer in memory, so they stay masked: the traffic log stores them masked, and the running console holds them for its newest ${groupedDigits(HELD_ENTRIES)} entries only (none from before it started).`;

/** An entry as shown: secrets masked unless revealed, with the transitions its answer caused and the violations found in it. */
export function presentEntry(
  entry: StoredTrafficEntry,
  reveal: boolean,
  transitions: TrafficEntry['transitions'] = [],
  violations: TrafficEntry['violations'] = [],
): TrafficEntry {
  const { secretsMasked, cut, ...stored } = entry;
  // What is still masked is shown as the log holds it (masking a mask changes nothing).
  const shown = reveal && !secretsMasked;
  return {
    ...stored,
    url: shown ? stored.url : redactUrl(stored.url),
    requestHeaders: shown ? stored.requestHeaders : redactHeaders(stored.requestHeaders),
    requestBody: shown ? stored.requestBody : redactBody(stored.requestBody),
    responseHeaders: shown ? stored.responseHeaders : redactHeaders(stored.responseHeaders),
    responseBody: shown ? stored.responseBody : redactBody(stored.responseBody),
    cut: cut ?? null,
    redacted: !shown,
    revealed: shown,
    ...(reveal && secretsMasked ? { revealNote: REVEAL_GONE } : {}),
    transitions,
    violations,
  };
}
