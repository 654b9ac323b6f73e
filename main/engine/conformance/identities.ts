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
 * Across an edit (windows of two queueVersions) a new name under the same media path is said,
 * not failed (`renames`): changing an item is an edit (console.md §4), and a track renamed under
 * its id, its file the same, is that track still (outsider audit: the console's own server, an
 * item renamed through its admin API, failed); an id given to another track whose URL is made
 * from the id looks the same from outside, which only the server can tell. Another path is judged
 * as within one version: a reused id, edit or not (a player keeps the audio it cached under an id).
 */
import { isObject } from '../api/is-object.js';
import { idOf, type WindowView } from './window-view.js';
import { requestLine, type Answer } from './server.js';
import { isVersion } from './version-answer.js';
import {
  describeTrack,
  otherPlace,
  otherTrack,
  trackOf,
  type PlaceChange,
  type TrackIdentity,
} from '../player/contract-check.js';

/** An id's track as first seen (or as an edit renamed it), with that window's queueVersion. */
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
  /** One sentence per id renamed across an edit under the same media path, the first few (`renamed` counts them all). */
  readonly renames: string[] = [];
  /** Ids renamed across an edit under the same media path. */
  renamed = 0;
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
      if (edited && renamedInPlace(before, now)) {
        this.noteRename(id, before, now);
        this.seen.set(id, now);
        continue;
      }
      if (!otherTrack(before, now)) {
        const place = this.saidPlace.has(id) ? null : otherPlace(before, now);
        if (place) this.notePlace(id, place, before, now);
        continue;
      }
      const across = edited
        ? `, across an edit (queueVersion ${JSON.stringify(before.version)}, then ${JSON.stringify(now.version)}: another media path under an id is a reused id, edit or not)`
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

  private noteRename(id: string, before: Seen, now: Seen): void {
    if (++this.renamed > RENAMES_SAID) return;
    this.renames.push(
      `${id} was renamed across an edit under the same media path, ${describeTrack(before)} in ${requestLine(before.answer)} (queueVersion ${JSON.stringify(before.version)}) and ${describeTrack(now)} in ${requestLine(now.answer)} (${JSON.stringify(now.version)}): one track if the file is the same recording (its name corrected), another under a reused id if not`,
    );
    this.evidence.add(before.answer).add(now.answer);
  }

  private notePlace(id: string, place: PlaceChange, before: Seen, now: Seen): void {
    this.saidPlace.add(id);
    if (this.saidPlace.size > PLACE_CHANGES_SAID) return;
    const both = `${describeTrack(before)} in ${requestLine(before.answer)} and ${describeTrack(now)} in ${requestLine(now.answer)}`;
    this.placeChanges.push(
      place === 'host'
        ? `${id} came with its media from two hosts, ${both}: one track if both serve the same file (a CDN's hosts), another under a reused id if not`
        : place === 'path'
          ? `${id} came with its media under two paths ending in one file, ${both}: one track if the path carries a signature (a CDN's path token), another under a reused id if not`
          : `${id} came with its media at two URLs that name no file, under one track name, ${both}: one track if the URL was issued anew (an opaque signed URL, as a play answer may renew it), another under a reused id if not`,
    );
    this.evidence.add(before.answer).add(now.answer);
  }
}

/** Place changes told in full (a case lists three findings: these and the count of the rest); a CDN that rotates hosts or signs paths does it for every id. */
const PLACE_CHANGES_SAID = 2;

/** Renames told in full; the rest are counted. */
const RENAMES_SAID = 2;

/** Across an edit: the same media path (any host) under another name. */
function renamedInPlace(was: TrackIdentity, now: TrackIdentity): boolean {
  return (
    was.name !== undefined &&
    now.name !== undefined &&
    was.name !== now.name &&
    was.mediaPath !== undefined &&
    was.mediaPath === now.mediaPath
  );
}
