/**
 * Which track each item id named, over every window the run fetched, worked out as the windows
 * come (`item-window.stable-identity` reads it at the end). A play to the end of a long queue
 * fetches thousands of windows: the run keeps the first track seen under each id and the
 * conflicts, not the windows (docs/contract/console.md §8, the 300 MB bound).
 *
 * A track is told by its name and its media URL's path, without host and query (signed URLs are
 * refreshed, platform.md §2.4 `play`, and may come from another host of a CDN); a field a window
 * leaves out is not compared. The same path on another host, or one name and file under another
 * path (a URL signed in its path), is noted apart (`placeChanges`): one file in two places, or two
 * files, which only the server can tell.
 *
 * Across an edit (windows of two queueVersions) an id is held to its audio only: changing an item
 * is an edit (console.md §4), and a track renamed under its id, its file the same, is that track
 * still (outsider audit: the console's own server, an item renamed through its admin API, failed).
 * Another file under the id is a reused id, edit or not: a player keeps the audio it cached under
 * an id.
 */
import { isObject } from '../api/is-object.js';
import { idOf, type WindowView } from './window-view.js';
import { requestLine, type Answer } from './server.js';
import { isVersion } from './version-answer.js';
import {
  describeTrack,
  fileOf,
  otherPlace,
  otherTrack,
  trackOf,
  type TrackIdentity,
} from '../player/contract-check.js';

/** An id's track as the newest window that named it gave it, with that window's queueVersion. */
type Seen = TrackIdentity & { answer: Answer; version: unknown };

export class TrackIdentities {
  /** Windows and items with a track seen. */
  windows = 0;
  items = 0;
  /** Each id's first track (after a conflict, nothing more is compared for it: said once an id). */
  readonly seen = new Map<string, Seen>();
  /** One sentence per id that named two tracks, and the windows that show it. */
  readonly conflicts: string[] = [];
  /** One sentence per id whose media came from two hosts or paths, the first few (`placeChanged` counts them all). */
  readonly placeChanges: string[] = [];
  readonly evidence = new Set<Answer>();
  /** Ids whose media came from two hosts or paths: each said once. */
  private readonly saidPlace = new Set<string>();

  add(view: WindowView): void {
    this.windows++;
    for (const item of view.items) {
      const id = idOf(item);
      const track = isObject(item) && isObject(item.track) ? item.track : null;
      if (id === null || !track) continue;
      this.items++;
      const now: Seen = { ...trackOf(track), answer: view.answer, version: view.queueVersion };
      const before = this.seen.get(id);
      if (!before) {
        this.seen.set(id, now);
        continue;
      }
      const edited = before.version !== now.version && isVersion(before.version) && isVersion(now.version);
      if (edited ? !otherFile(before, now) : !otherTrack(before, now)) {
        const place = this.saidPlace.has(id) ? null : edited ? placeOf(before, now) : otherPlace(before, now);
        if (place) this.notePlace(id, place, before, now);
        // Renamed with an edit: the windows of the new version are held to the new name.
        if (edited) this.seen.set(id, now);
        continue;
      }
      const across = edited
        ? `, across an edit (queueVersion ${JSON.stringify(before.version)}, then ${JSON.stringify(now.version)}: another file under an id is a reused id, edit or not)`
        : '';
      this.conflicts.push(
        `expected ${id} to name one track, got ${describeTrack(before)} in ${requestLine(before.answer)} and ${describeTrack(now)} in ${requestLine(now.answer)}${across}`,
      );
      this.evidence.add(before.answer).add(now.answer);
      this.seen.set(id, { name: undefined, media: undefined, answer: now.answer, version: now.version });
    }
  }

  /** Ids whose media came from two hosts or paths. */
  get placeChanged(): number {
    return this.saidPlace.size;
  }

  private notePlace(id: string, place: 'host' | 'path', before: Seen, now: Seen): void {
    this.saidPlace.add(id);
    if (this.saidPlace.size > PLACE_CHANGES_SAID) return;
    const both = `${describeTrack(before)} in ${requestLine(before.answer)} and ${describeTrack(now)} in ${requestLine(now.answer)}`;
    this.placeChanges.push(
      place === 'host'
        ? `${id} came with its media from two hosts, ${both}: one track if both serve the same file (a CDN's hosts), another under a reused id if not`
        : `${id} came with its media under two paths ending in one file, ${both}: one track if the path carries a signature (a CDN's path token), another under a reused id if not`,
    );
    this.evidence.add(before.answer).add(now.answer);
  }
}

/** Place changes told in full (a case lists three findings: these and the count of the rest); a CDN that rotates hosts or signs paths does it for every id. */
const PLACE_CHANGES_SAID = 2;

/** Across an edit: whether the id's audio is another file (a path that ends in another file; the same file under a path signed anew is a place). */
function otherFile(was: TrackIdentity, now: TrackIdentity): boolean {
  if (was.mediaPath === undefined || now.mediaPath === undefined || was.mediaPath === now.mediaPath) return false;
  const file = fileOf(was.mediaPath);
  return file === '' || file !== fileOf(now.mediaPath);
}

/** Across an edit, where one file is when not at one URL: another host, or another path to it. */
function placeOf(was: TrackIdentity, now: TrackIdentity): 'host' | 'path' | null {
  if (was.media === undefined || now.media === undefined || was.media === now.media) return null;
  return was.mediaPath === now.mediaPath ? 'host' : 'path';
}
