/**
 * Requests the console's own servers dropped on purpose (a `drop` fault: a TCP reset), by their
 * X-Request-Id, for the players' transport to tell them from a stale kept-alive connection. Both
 * fail the same way at the player (ECONNRESET before any answer, on a reused connection, at once),
 * and a stale one is sent again on a new connection (player/http-transport.ts), so a drop on a
 * connection the player had used within the last seconds was sent again and answered 200: the
 * fault never reached the player, and a repro bundle of one reproduced or not by the connection's
 * age (outside audit of 7 December 2026). Only the newest are kept: the question comes within a
 * second of the drop.
 */
const KEPT = 256;

export class DroppedOnPurpose {
  private readonly ids = new Set<string>();

  add(requestId: string): void {
    if (this.ids.size >= KEPT) this.ids.delete(this.ids.values().next().value!);
    this.ids.add(requestId);
  }

  has(requestId: string): boolean {
    return this.ids.has(requestId);
  }
}
