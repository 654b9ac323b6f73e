/**
 * Which track each item id named, over every window the run fetched, worked out as the windows
 * come (`item-window.stable-identity` reads it at the end). A play to the end of a long queue
 * fetches thousands of windows: the run keeps the first track seen under each id and the
 * conflicts, not the windows (docs/contract/console.md §8, the 300 MB bound).
 *
 * A track is told by its name and its media URL's path, without host and query (signed URLs are
 * refreshed, platform.md §2.4 `play`, and may come from another host of a CDN); a field a window
 * leaves out is not compared. The same path on another host is noted apart (`hostChanges`): one
 * file on two hosts, or two files in two buckets, which only the server can tell.
 */
import { isObject } from '../api/is-object.js';
import { idOf, type WindowView } from './window-view.js';
import { requestLine, type Answer } from './server.js';
import { describeTrack, otherHost, otherTrack, trackOf, type TrackIdentity } from '../player/contract-check.js';

type Seen = TrackIdentity & { answer: Answer };

export class TrackIdentities {
  /** Windows and items with a track seen. */
  windows = 0;
  items = 0;
  /** Each id's first track (after a conflict, nothing more is compared for it: said once an id). */
  readonly seen = new Map<string, Seen>();
  /** One sentence per id that named two tracks, and the windows that show it. */
  readonly conflicts: string[] = [];
  /** One sentence per id whose media path came from two hosts, the first few (`hostChanged` counts them all). */
  readonly hostChanges: string[] = [];
  readonly evidence = new Set<Answer>();
  /** Ids whose media path came from two hosts: each said once. */
  private readonly saidHost = new Set<string>();

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
      if (!otherTrack(before, now)) {
        if (otherHost(before, now) && !this.saidHost.has(id)) this.noteHost(id, before, now);
        continue;
      }
      this.conflicts.push(
        `expected ${id} to name one track, got ${describeTrack(before)} in ${requestLine(before.answer)} and ${describeTrack(now)} in ${requestLine(now.answer)}`,
      );
      this.evidence.add(before.answer).add(now.answer);
      this.seen.set(id, { name: undefined, media: undefined, answer: now.answer });
    }
  }

  /** Ids whose media path came from two hosts. */
  get hostChanged(): number {
    return this.saidHost.size;
  }

  private noteHost(id: string, before: Seen, now: Seen): void {
    this.saidHost.add(id);
    if (this.saidHost.size > HOST_CHANGES_SAID) return;
    this.hostChanges.push(
      `${id} came with its media from two hosts, ${describeTrack(before)} in ${requestLine(before.answer)} and ${describeTrack(now)} in ${requestLine(now.answer)}: one track if both serve the same file (a CDN's hosts), another under a reused id if not`,
    );
    this.evidence.add(before.answer).add(now.answer);
  }
}

/** Host changes told in full (a case lists three findings: these and the count of the rest); a CDN that rotates hosts does it for every id. */
const HOST_CHANGES_SAID = 2;
