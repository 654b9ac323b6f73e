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
  /** Tickets of requests answered after a later one of their player (the newest CROSSINGS_KEPT). */
  private readonly overtaken: number[] = [];
  /** By player, the newest ticket of a request of it answered with state. */
  private readonly newestAnswered = new Map<string, number>();
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

  /** The ticket the next request will get: requests begun from a mark on have tickets at or above it. */
  get issued(): number {
    return this.nextTicket;
  }

  /** Requests begun at or after ticket `mark` that have ended. */
  endedSince(mark: number): number {
    let underWay = 0;
    for (const ticket of this.underWay.keys()) if (ticket >= mark) underWay++;
    return Math.max(0, this.nextTicket - mark - underWay);
  }

  /**
   * Tickets of the answers that crossed: a request answered after a later one of the same player
   * (it waited for a connection, say). A replay sends held requests in the order they came and
   * cannot repeat that (bundles/journal-scenario.ts). Only answers that carry state count: a report's
   * (`timePlayed`) changes nothing, one given up without an answer (a timeout rule's) or timed by
   * a fault rule (a latency) is held the same way by the replay's server.
   */
  crossings(): readonly number[] {
    return this.overtaken;
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

  /**
   * `withState`: its answer came and may change the player (not a report's, not one a fault rule
   * timed or made, not given up or dropped before any answer); only those can cross.
   */
  end(ticket: number, withState = true): void {
    const playerId = this.underWay.get(ticket);
    if (playerId === undefined) return;
    if (withState) {
      const newest = this.newestAnswered.get(playerId) ?? 0;
      if (newest > ticket) {
        this.overtaken.push(ticket);
        if (this.overtaken.length > CROSSINGS_KEPT) this.overtaken.shift();
      }
      this.newestAnswered.set(playerId, Math.max(newest, ticket));
    }
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
      if (held === null || request.signal.aborted) return inner(request);
      return new Promise((resolve, reject) => {
        const send = (): void => {
          request.signal.removeEventListener('abort', aborted);
          inner(request).then(resolve, reject);
        };
        // Given up while held: out of the queue, so that it is neither sent nor counted as held.
        const aborted = (): void => {
          const at = held.indexOf(send);
          if (at !== -1) held.splice(at, 1);
          reject(request.signal.reason as Error);
        };
        request.signal.addEventListener('abort', aborted, { once: true });
        held.push(send);
        this.tell();
      });
    };
  }
}

/** Crossings kept: a journal compares them with the tickets of its latest calls only. */
const CROSSINGS_KEPT = 1_000;
