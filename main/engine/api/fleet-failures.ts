/**
 * What ended an endpoint's transport errors, in words, as the terminal, the HTML report and the
 * Fleet area say it beside the count: one place, so that the three never word it differently.
 * Pure, shared with the renderer.
 */
import type { FleetEndpointStats } from './fleet-types.js';

/** ` (no complete response within 10 s ×3; connection failed: ECONNRESET ×1)`: the most first; `''` with none. */
export function failuresSaid(stats: Pick<FleetEndpointStats, 'failures'>): string {
  const causes = Object.entries(stats.failures ?? {}).sort(([, a], [, b]) => b - a);
  return causes.length ? ` (${causes.map(([cause, n]) => `${cause} ×${n.toLocaleString('en-US')}`).join('; ')})` : '';
}
