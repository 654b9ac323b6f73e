/**
 * Sample tracks for "generate N": plausible, varied and reproducible (the n-th sample of a queue
 * is always the same track), with durations a simulated player can play through.
 */
import type { Track } from '../api/queue-types.js';
import { MEDIA_HOST } from './track-defaults.js';

const ADJECTIVES = [
  'Quiet',
  'Electric',
  'Golden',
  'Midnight',
  'Paper',
  'Northern',
  'Velvet',
  'Hollow',
  'Bright',
  'Distant',
  'Silver',
  'Open',
];
const NOUNS = [
  'Harbour',
  'Signal',
  'Orchard',
  'Engine',
  'Lantern',
  'Meadow',
  'Circuit',
  'River',
  'Station',
  'Garden',
  'Window',
  'Tide',
];
const ARTISTS = [
  'The Loopbacks',
  'Port 47103',
  'Ada & the Queues',
  'Null Island',
  'Retry-After',
  'Velvet Buffer',
  'Cloud Choir',
  'The Item Windows',
];
const ALBUMS = ['Context Version', 'Upcoming Window', 'Final Report', 'Skip Limits', 'Pause TTL', 'Refresh'];

/** Sample number `n` (1-based). */
export function sampleTrack(n: number): Track {
  const h = hash(n);
  const title = `${ADJECTIVES[h % ADJECTIVES.length]} ${NOUNS[(h >>> 4) % NOUNS.length]}`;
  return {
    name: `${title} ${n}`,
    mediaUrl: `${MEDIA_HOST}/samples/${n}.mp3`,
    contentType: 'audio/mpeg',
    // 2:00 to 5:59, whole seconds.
    durationMillis: (120 + ((h >>> 8) % 240)) * 1000,
    imageUrl: `${MEDIA_HOST}/art/${(h >>> 16) % 32}.jpg`,
    artist: { name: ARTISTS[(h >>> 12) % ARTISTS.length]! },
    album: { name: ALBUMS[(h >>> 20) % ALBUMS.length]! },
  };
}

export function sampleTracks(firstN: number, count: number): Track[] {
  return Array.from({ length: count }, (_, i) => sampleTrack(firstN + i));
}

/** A small integer hash (xorshift-multiply), so neighbours differ. */
function hash(n: number): number {
  let x = Math.imul(n ^ 0x9e3779b9, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}
