/**
 * A redirect no player follows: to another scheme (`file:`, `data:`) or to no URL at all. The
 * server did answer, wrongly; it read as "connection failed: unsupported protocol file:", a server
 * that cannot be reached (exit 2), where a redirect loop was an answer (exit 1: audit).
 */
export class UnfollowableRedirect extends Error {
  constructor(
    readonly status: number,
    readonly location: string,
  ) {
    super(`redirected to ${location}`);
  }
}
