/**
 * A fleet's state in a word, as the Fleet area's list and heading and the HTML report say it
 * (docs/fleet.md, "The Fleet area"): one place, so that the UI and an exported report never
 * disagree (a stopped fleet read "passed" in the UI and "stopped" in its report; an unreachable
 * one "failed" in the list and "finished" in the report: review). Pure, shared with the renderer.
 */
import type { FleetReport } from './fleet-types.js';

export interface FleetWordInput {
  status: FleetReport['status'];
  verdict: 'pass' | 'fail' | null;
  /** Why it could not play, if it could not. */
  errorKind: 'unreachable' | 'setup' | null;
}

export type FleetWord =
  | 'playing'
  | 'passed'
  | 'failed'
  | 'unreachable'
  | 'could not start'
  | 'stopped'
  | 'stopped, passed so far'
  | 'stopped, failed'
  | 'finished';

export function fleetWord({ status, verdict, errorKind }: FleetWordInput): FleetWord {
  if (status === 'running') return 'playing';
  if (errorKind === 'unreachable') return 'unreachable';
  if (errorKind === 'setup') return 'could not start';
  // Stopped early: what it measured is judged, and a pass over part of its time is not a pass.
  if (status === 'stopped')
    return verdict === 'pass' ? 'stopped, passed so far' : verdict === 'fail' ? 'stopped, failed' : 'stopped';
  if (verdict === 'pass') return 'passed';
  if (verdict === 'fail') return 'failed';
  return 'finished';
}
