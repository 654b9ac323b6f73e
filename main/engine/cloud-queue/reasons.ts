/**
 * The `reason` values of GET /itemWindow (docs/contract/platform.md §2.4, §4.3). Since v2.2 a player may join several
 * with `+`; the only combination players send is `load+queueCompleted`, and it is the only one
 * accepted. In a query string `+` decodes to a space, so both spellings arrive as the same value.
 */
import { reasonAsWritten } from '../http/reason-as-written.js';

export const ITEM_WINDOW_REASONS = [
  'load',
  'pause',
  'play',
  'queueCompleted',
  'refresh',
  'resume',
  'skipNext',
  'skipPrev',
  'skipToItem',
] as const;
export const COMBINED_REASONS = ['load+queueCompleted'] as const;

export type ItemWindowReason = (typeof ITEM_WINDOW_REASONS)[number] | (typeof COMBINED_REASONS)[number];

/** The reasons of a listener's skip: a server whose policies limit skips may refuse one with 403. */
export const SKIP_REASONS: ReadonlySet<ItemWindowReason> = new Set<ItemWindowReason>(['skipNext', 'skipPrev']);

const ACCEPTED = new Set<string>([...ITEM_WINDOW_REASONS, ...COMBINED_REASONS]);

// The spelling rule lives in http/, where the traffic log reads it too without depending on this server.
export { reasonAsWritten };

/** The reason as the player meant it, or null when it is not one the server accepts. */
export function parseReason(raw: string): ItemWindowReason | null {
  const reason = reasonAsWritten(raw);
  return ACCEPTED.has(reason) ? (reason as ItemWindowReason) : null;
}
