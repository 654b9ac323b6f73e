/**
 * The players' requests under way, engine-wide, and a gate that can hold new ones before they go
 * out. Both serve a repro bundle's calls made at one instant (a double-tapped skip, a skip sent
 * before its load answered):
 *
 * - the journal marks a call that began while a player's request was in flight: what it met
 *   depended on that request not being answered yet;
 * - the replay makes such a call before the requests of the call before it are answered, by
 *   holding them at the gate until it has been made (scenarios/runner.ts). Without it each call
 *   settled before the next, and the second tap met a skip already answered (audit X10).
 */
import type { HttpTransport } from './client.js';

export class PlayerRequestsInFlight {
  /** The requests under way by the order they began (a ticket), each with its player. */
  private readonly underWay = new Map<number, string>();
  private nextTicket = 1;
  private endedCount = 0;
  private crossedCount = 0;
  /** By player, the newest ticket of a request of it that ended. */
  private readonly newestEnded = new Map<string, number>();
  /** By player, the requests it began since the engine began. */
  private readonly begunBy = new Map<string, number>();
  private held: Array<() => void> | null = null;
  private readonly listeners = new Set<() => void>();

  /** Requests begun and not yet ended (answered, failed or given up), held ones included. */
  get size(): number {
    return this.underWay.size;
  }

  /** Requests ended since the engine began: the journal notes it as each call begins. */
  get ended(): number {
    return this.endedCount;
  }

  /**
   * Answers that crossed: a request answered after a later one of the same player had ended (it
   * waited for a connection, say). A replay sends held requests in the order they came and cannot
   * repeat that, so the journal notes it (`requestsCrossed`). One that got no answer at all (a
   * timeout rule's) is no crossing: the replay's server holds it the same way.
   */
  get crossed(): number {
    return this.crossedCount;
  }

  /** A request of `playerId` begins: its exchange, from before it is sent until its answer is read. */
  begin(playerId: string): number {
    const ticket = this.nextTicket++;
    this.underWay.set(ticket, playerId);
    this.begunBy.set(playerId, (this.begunBy.get(playerId) ?? 0) + 1);
    return ticket;
  }

  /** By player, the requests it began since the engine began (a copy). */
  begunCounts(): Record<string, number> {
    return Object.fromEntries(this.begunBy);
  }

  /** `answered`: its status line came (not given up, refused or dropped before any answer). */
  end(ticket: number, answered = true): void {
    const playerId = this.underWay.get(ticket);
    if (playerId === undefined) return;
    const newest = this.newestEnded.get(playerId) ?? 0;
    if (answered && newest > ticket) this.crossedCount++;
    this.newestEnded.set(playerId, Math.max(newest, ticket));
    this.underWay.delete(ticket);
    this.endedCount++;
    this.tell();
  }

  /** From now on a request waits at the gate (`transport`) until `release`. */
  hold(): void {
    this.held ??= [];
  }

  get holding(): boolean {
    return this.held !== null;
  }

  /** Sends the held requests, in the order they came, and holds no more. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const send of held) send();
  }

  /** Sends the `n` oldest held requests, holding on to the rest; answers how many went. */
  releaseOldest(n: number): number {
    const sent = this.held?.splice(0, n) ?? [];
    for (const send of sent) send();
    return sent.length;
  }

  /**
   * Resolves once `when()` holds, asked again whenever a request is held or ends, or when the
   * returned cancel is called.
   */
  until(when: () => boolean): { reached: Promise<void>; cancel: () => void } {
    let cancel = (): void => undefined;
    const reached = new Promise<void>((resolve) => {
      const listener = (): void => {
        if (!when()) return;
        cancel();
      };
      cancel = () => {
        this.listeners.delete(listener);
        resolve();
      };
      this.listeners.add(listener);
      listener();
    });
    return { reached, cancel };
  }

  /** Requests waiting at the gate now. */
  get heldCount(): number {
    return this.held?.length ?? 0;
  }

  private tell(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** `inner`, its requests waiting at the gate while it holds (an abort meanwhile ends one unsent). */
  gate(inner: HttpTransport): HttpTransport {
    return (request) => {
      const held = this.held;
      if (held === null) return inner(request);
      return new Promise((resolve, reject) => {
        const aborted = (): void => reject(request.signal.reason as Error);
        request.signal.addEventListener('abort', aborted, { once: true });
        held.push(() => {
          request.signal.removeEventListener('abort', aborted);
          if (request.signal.aborted) return;
          inner(request).then(resolve, reject);
        });
        this.tell();
      });
    };
  }
}
