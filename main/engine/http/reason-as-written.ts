/**
 * A query value as the client wrote it, for the one value whose `+` is meaningful: since v2.2 a
 * player may join itemWindow reasons with `+` (docs/contract/platform.md §2.4, §9), and an
 * unencoded `+` decodes to a space. Kept here, apart from any one area, because the cloud queue
 * server, capture, fault matching and the traffic log's filters must all read it the same way.
 */

/** A decoded `reason` as the player wrote it: an unencoded `load+queueCompleted` decodes with a space. */
export function reasonAsWritten(decoded: string): string {
  // Checked first: every captured request with a reason passes here, and nearly none has a space.
  return decoded.includes(' ') ? decoded.replace(/ /g, '+') : decoded;
}
