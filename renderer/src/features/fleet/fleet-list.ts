/**
 * The kept fleets as the area lists them: which one is shown, and each one's state in a word.
 * A fleet started elsewhere (the admin API, a script, another window) shows here as it plays.
 */
import type { FleetListItem } from '@engine-api/fleet-types';
import type { BadgeTone } from '../../components/Badge';

/** The fleet the address names, else the newest kept (the one playing, when one is). */
export function fleetShown(named: string | null, fleets: readonly FleetListItem[]): string | null {
  return named ?? fleets[0]?.id ?? null;
}

/** A fleet's state in a word and its tone: playing, passed, failed, or how it ended without thresholds. */
export function fleetState(fleet: Pick<FleetListItem, 'status' | 'verdict'>): {
  word: string;
  tone: BadgeTone | undefined;
} {
  if (fleet.status === 'running') return { word: 'playing', tone: 'info' };
  if (fleet.verdict === 'pass') return { word: 'passed', tone: 'ok' };
  if (fleet.verdict === 'fail') return { word: 'failed', tone: 'bad' };
  return { word: fleet.status, tone: undefined };
}
