/**
 * Which track each item id named, over every window the run fetched, worked out as the windows
 * come (`item-window.stable-identity` reads it at the end). A play to the end of a long queue
 * fetches thousands of windows: the run keeps the first track seen under each id and the
 * conflicts, not the windows (docs/contract/console.md §8, the 300 MB bound).
 *
 * A track is told by its name and its media URL without the query (signed URLs are refreshed,
 * platform.md §2.4 `play`); a field a window leaves out is not compared.
 */
import { isObject } from '../api/is-object.js';
import { idOf, type WindowView } from './window-view.js';
import { requestLine, type Answer } from './server.js';
import { describeTrack, otherTrack, trackOf, type TrackIdentity } from '../player/contract-check.js';

type Seen = TrackIdentity & { answer: Answer };

export class TrackIdentities {
  /** Windows and items with a track seen. */
  windows = 0;
  items = 0;
  /** Each id's first track (after a conflict, nothing more is compared for it: said once an id). */
  readonly seen = new Map<string, Seen>();
  /** One sentence per id that named two tracks, and the windows that show it. */
  readonly conflicts: string[] = [];
  readonly evidence = new Set<Answer>();

  add(view: WindowView): void {
    this.windows++;
    for (const item of view.items) {
      const id = idOf(item);
      const track = isObject(item) && isObject(item.track) ? item.track : null;
      if (id === null || !track) continue;
      this.items++;
      const now: Seen = { ...trackOf(track), answer: view.answer };
      const before = this.seen.get(id);
      if (!before) {
        this.seen.set(id, now);
        continue;
      }
      if (!otherTrack(before, now)) continue;
      this.conflicts.push(
        `expected ${id} to name one track, got ${describeTrack(before)} in ${requestLine(before.answer)} and ${describeTrack(now)} in ${requestLine(now.answer)}`,
      );
      this.evidence.add(before.answer).add(now.answer);
      this.seen.set(id, { name: undefined, media: undefined, answer: now.answer });
    }
  }
}
