/**
 * The kept fleets as the area lists them: which one is shown, and each one's state in a word.
 * A fleet started elsewhere (the admin API, a script, another window) shows here as it plays.
 */
import type { FleetListItem } from '@engine-api/fleet-types';
import { fleetWord, type FleetWord } from '@engine-api/fleet-word';
import type { BadgeTone } from '../../components/Badge';

/** The fleet the address names, else the newest kept (the one playing, when one is). */
export function fleetShown(named: string | null, fleets: readonly FleetListItem[]): string | null {
  return named ?? fleets[0]?.id ?? null;
}

/** A fleet's state in a word (as its exported report says it) and its tone. */
export function fleetState(fleet: Pick<FleetListItem, 'status' | 'verdict' | 'errorKind'>): {
  word: FleetWord;
  tone: BadgeTone | undefined;
} {
  const word = fleetWord(fleet);
  return { word, tone: TONES[word] };
}

const TONES: Record<FleetWord, BadgeTone | undefined> = {
  playing: 'info',
  passed: 'ok',
  failed: 'bad',
  unreachable: 'bad',
  'could not start': 'bad',
  // Stopped early: a pass over part of its time is not a pass.
  'stopped, passed so far': 'warn',
  'stopped, failed': 'bad',
  stopped: undefined,
  finished: undefined,
};
