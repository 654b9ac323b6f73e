/**
 * The rules the cases check, as the docs cite them. The platform's text (platform.md) where it
 * says the rule; our decisions (console.md) where the platform leaves the shape open.
 */
export const RULE = {
  /** The requests players make: context, itemWindow and its query, version, timePlayed. */
  requests: 'docs/contract/platform.md §4.3',
  /** The codes a cloud queue server answers: 400 for a negative size, 404 for an unknown itemId. */
  errors: 'docs/contract/platform.md §7.1',
  /** previousWindowSize / upcomingWindowSize: integers, zero or greater. */
  limits: 'docs/contract/platform.md §8',
  /** The reason values, and `load+queueCompleted` since v2.2. */
  reasons: 'docs/contract/platform.md §2.4',
  /** The playback report and its two types. */
  reports: 'docs/contract/platform.md §2.3',
  /** 503 with Retry-After, and how long the player waits for it. */
  retry: 'docs/contract/platform.md §7.2',
  /** 401 for an expired or invalid access token. */
  auth: 'docs/contract/platform.md §5.7',
  /** The shapes of the window and its items, which the platform leaves open. */
  shapes: 'docs/contract/console.md §4',
  /** What the suite itself adds: slow answers and unreachable base URLs are warnings; the play-through. */
  suite: 'docs/contract/console.md §8',
} as const;
