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
import type { RequestCrossing } from '../api/request-crossing.js';
import type { HttpTransport } from './client.js';

export class PlayerRequestsInFlight {
  /** The requests under way by the order they began (a ticket), each with its player and engine time. */
  private readonly underWay = new Map<number, { playerId: string; at: number }>();
  private nextTicket = 1;
  private endedCount = 0;
  /** Answers that crossed (the newest CROSSINGS_KEPT). */
  private readonly crossed: RequestCrossing[] = [];
  /** By player, the newest request of it answered with state: its ticket and engine time. */
  private readonly newestAnswered = new Map<string, { ticket: number; at: number }>();
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
   * The answers that crossed: a request answered after a later one of the same player (it waited
   * for a connection, say). A replay sends held requests in the order they came and cannot repeat
   * that (bundles/journal-scenario.ts). Only answers that may change the player count: not a
   * report's answered 2xx with no body, not one given up without an answer (a timeout rule's), not
   * one a fault rule made or timed (the replay's rules do the same).
   */
  crossings(): readonly RequestCrossing[] {
    return this.crossed;
  }

  /** A request of `playerId` begins at engine time `at`: its exchange, from before it is sent until its answer is read. */
  begin(playerId: string, at = 0): number {
    const ticket = this.nextTicket++;
    this.underWay.set(ticket, { playerId, at });
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
    const request = this.underWay.get(ticket);
    if (request === undefined) return;
    const { playerId, at } = request;
    if (withState) {
      const newest = this.newestAnswered.get(playerId);
      if (newest && newest.ticket > ticket) {
        this.crossed.push({ tickets: [ticket, newest.ticket], at: [at, newest.at] });
        if (this.crossed.length > CROSSINGS_KEPT) this.crossed.shift();
      }
      if (!newest || newest.ticket < ticket) this.newestAnswered.set(playerId, { ticket, at });
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
    // Every player request ends here: no copy of the listeners unless a replay is waiting on them.
    if (this.listeners.size === 0) return;
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
