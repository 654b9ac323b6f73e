/**
 * What the console's cloud queue server fills in where a queue was created without it: a track's
 * `mediaUrl` (a player cannot play or report a track without one, docs/contract/platform.md §2.3, so the console's own
 * player would refuse the whole window) and the container's `imageUrl` (docs/contract/console.md §4 lists it).
 * Everything else is served as it was given. Placeholders point at the same unreachable media
 * host as the sample tracks.
 */
import type { Track } from '../api/queue-types.js';

export const MEDIA_HOST = 'https://media.example.com/cloud-queue-console';
export const DEFAULT_CONTAINER_IMAGE_URL = `${MEDIA_HOST}/art/queue.jpg`;

export function playableTrack(track: Track, itemId: string): Track {
  return typeof track.mediaUrl === 'string' && track.mediaUrl !== ''
    ? track
    : { ...track, mediaUrl: `${MEDIA_HOST}/items/${encodeURIComponent(itemId)}.mp3` };
}
