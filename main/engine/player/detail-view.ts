/**
 * What a player's detail shows of its window and track: the fields the player panel reads, each
 * text cut at SHOWN_CHARS. The player keeps what its server sent, up to its 8 MB cap an answer,
 * and its detail (`GET /admin/api/players/{id}`, every `player.changed` event) showed it all: a
 * track named with 7 MB of text came twice in every detail, 14.7 MB to build, send and hold per
 * reader, and ten readers at once held every listener 294 ms (audit of 5 December 2026). The
 * player's own state, its reports and the control API's `playbackMetadata` are not cut.
 */
import { isObject } from '../api/is-object.js';
import type { PlayerDetail, TrackView } from '../api/player-types.js';
import type { Player } from './player.js';
import { shown } from './shown.js';

const shownOrNot = (text: unknown): string | undefined => (typeof text === 'string' ? shown(text) : undefined);

/** The track as the panel reads it (TrackView's fields only, not every field its server sent), texts cut. */
export function shownTrack(track: Record<string, unknown> & { id: string | null }): TrackView {
  const named = (value: unknown) => (isObject(value) ? shownOrNot(value.name) : undefined);
  const view: TrackView = { id: track.id, mediaUrl: shownOrNot(track.mediaUrl) ?? '' };
  const name = shownOrNot(track.name);
  if (name !== undefined) view.name = name;
  if (typeof track.durationMillis === 'number') view.durationMillis = track.durationMillis;
  const imageUrl = shownOrNot(track.imageUrl);
  if (imageUrl !== undefined) view.imageUrl = imageUrl;
  const artist = named(track.artist);
  if (artist !== undefined) view.artist = { name: artist };
  const album = named(track.album);
  if (album !== undefined) view.album = { name: album };
  return view;
}

/** The parts of a player's snapshot its detail shows, texts cut. */
export function shownSnapshot(
  snapshot: ReturnType<Player['snapshot']>,
): Pick<PlayerDetail, 'window' | 'track'> & Omit<ReturnType<Player['snapshot']>, 'window' | 'track'> {
  const { window, track } = snapshot;
  return {
    ...snapshot,
    window: window && {
      ...window,
      items: window.items.map((item) => ({ ...item, name: item.name === null ? null : shown(item.name) })),
    },
    track: track && shownTrack(track as Record<string, unknown> & { id: string | null }),
  };
}
