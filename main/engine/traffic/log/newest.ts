/**
 * The newest rows of a filtered view of the log, oldest first: what a look back over a recent span
 * reads (a bundle's requests at export, a replay's at its check, a failed check's explanation),
 * bounded so that a long-lived log is never read whole.
 */
import type { TrafficFilter, TrafficSummary } from '../../api/traffic-types.js';
import type { TrafficLogStore } from './types.js';

/** Rows a look back reads at most: a span's worth on a busy console, not the whole log. */
export const NEWEST_ROWS_READ = 5_000;

export function newestRows(
  log: Pick<TrafficLogStore, 'page'>,
  filter: TrafficFilter,
  limit = NEWEST_ROWS_READ,
): TrafficSummary[] {
  const { total } = log.page(filter, 0, 0);
  return log.page(filter, Math.max(0, total - limit), limit).rows;
}
