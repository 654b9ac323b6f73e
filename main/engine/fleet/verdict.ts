/**
 * What a fleet's end makes of its thresholds (docs/fleet.md): judged only over what it measured,
 * and the verdict the list of fleets shows. A fleet that made no request measured nothing, and
 * zero errors of zero requests is no gate held (audit V6: a fleet stopped before its first
 * request passed `errors<1%` with exit 0).
 */
import type { FleetReport } from '../api/fleet-types.js';

/** Why the thresholds are not judged (said after "not judged: "), or null when they are. */
export function notJudgedWhy(end: Pick<FleetReport, 'status' | 'error'> & { requests: number }): string | null {
  if (end.error) return end.error.message;
  if (end.requests > 0) return null;
  // Stopped (Stop, DELETE, Ctrl-C) before a player's first request was counted: its probe, its
  // queues, its threads or its first join were still to come.
  return end.status === 'stopped' ? 'stopped before it played' : 'the fleet made no request';
}

/**
 * `pass` when every threshold held, `fail` when one did not, the fleet could not play (its server
 * unreachable, its setup failed) or it ran its course without a request; null while it plays,
 * with no threshold, or with none judged because it was stopped before it played.
 */
export function fleetVerdict({
  status,
  thresholds,
  error,
}: Pick<FleetReport, 'status' | 'thresholds' | 'error'>): 'pass' | 'fail' | null {
  if (status === 'running' || thresholds.length === 0) return null;
  if (error) return 'fail';
  if (thresholds.some((t) => t.notJudged)) return unjudgedFail({ status, error }) ? 'fail' : null;
  return thresholds.every((t) => t.ok) ? 'pass' : 'fail';
}

/**
 * Whether its thresholds not judged count as failed. Stopped before it played: nothing failed,
 * and nothing passed. Could not play: that failure is said once, as the fleet's own. Let to end
 * without a request (every player refused, say): its gates did not hold, the CLI exits 1 on it,
 * and so say the list and the JUnit report.
 */
export function unjudgedFail({ status, error }: Pick<FleetReport, 'status' | 'error'>): boolean {
  return status !== 'stopped' && !error;
}
