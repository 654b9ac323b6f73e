/**
 * When the player tells the server why it asks for an item window (docs/contract/platform.md §4.3, "Reason values for
 * GET /itemWindow"). Each rule quotes its row of the seed.
 */
import type { PlaybackPolicies, Reason } from './wire.js';

/**
 * `load`: "Only if the limitedSkips playback policy is enabled or the command has no track
 * metadata. With metadata the player starts at once and its first GET /itemWindow has reason
 * refresh." `load+queueCompleted` (v2.2): "the player downloaded all audio before its first item
 * window request (for example a very short track)" — only the `load` reason combines; with a
 * `refresh` first request the seed says nothing is combined, so it stays `refresh`. Joined reasons
 * are v2.2's (§9.3): to a base URL of an earlier version the player sends `load` alone.
 */
export function firstWindowReason(
  policies: PlaybackPolicies,
  hasMetadata: boolean,
  allAudioFetched: boolean,
  minorVersion: number,
): Reason {
  if (policies.limitedSkips || !hasMetadata)
    return allAudioFetched && minorVersion >= COMBINED_SINCE ? 'load+queueCompleted' : 'load';
  return 'refresh';
}

/** The minor version of v2 from which a player may join reasons with `+` (docs/contract/platform.md §9.3). */
export const COMBINED_SINCE = 2;

/** With metadata and without limitedSkips the player plays the track before the server answers. */
export function startsAtOnce(policies: PlaybackPolicies, hasMetadata: boolean): boolean {
  return hasMetadata && !policies.limitedSkips;
}

/**
 * `skipToItem`: "Only if limitedSkips is enabled or the command has no track metadata. With
 * metadata the player fetches audio without a request and later sends reason refresh."
 */
export function skipToItemAsksServer(policies: PlaybackPolicies, hasMetadata: boolean): boolean {
  return policies.limitedSkips || !hasMetadata;
}

/**
 * `skipNext` / `skipPrev`: "Only when limitedSkips or notifyUserIntent is enabled." — and then
 * "the player waits for the server's answer before allowing the skip".
 */
export function userSkipAsksServer(policies: PlaybackPolicies): boolean {
  return policies.limitedSkips || policies.notifyUserIntent;
}

/**
 * `pause` and `play`: "Only when notifyUserIntent is enabled." `play` is "not sent when
 * playback starts from loadCloudQueue or skipToItem" — those paths never call this.
 */
export function notifiesUserIntent(policies: PlaybackPolicies): boolean {
  return policies.notifyUserIntent;
}
