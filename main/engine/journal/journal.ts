/**
 * The engine journal: a bounded, in-memory list of every state-changing call, in the order the
 * calls began, each stamped with the engine time it began at. Built with the engine and closed
 * with it. The oldest entries are dropped past the cap; what they did to the fault rules is kept
 * as the base the rules at any later time are rebuilt from.
 */
import type { FaultRule } from '../api/fault-types.js';
import type { RequestCrossing } from '../api/request-crossing.js';
import type { JournalEntry, JournaledCommand, JournaledControlCall, RequestsAtBegin } from './types.js';

export const JOURNAL_CAPACITY = 10_000;
/** Queue snapshots kept before edits, in items: a bundle's queue as it was when its span began. */
export const JOURNAL_QUEUE_ITEMS_BUDGET = 200_000;

export interface JournalDeps {
  now(): number;
  /** The fault rules now, in matching order. */
  rules(): FaultRule[];
  /** The newest player transition recorded so far (its seq): the last one before the journal began. */
  lastTransitionSeq?(): number;
  /** The players' requests (player/requests-in-flight.ts), noted as each call begins (`RequestsAtBegin`). */
  requests?: {
    readonly size: number;
    readonly issued: number;
    endedSince(mark: number): number;
    crossings(): readonly RequestCrossing[];
    begunCounts(): Record<string, number>;
  };
  /** Whether the engine clock runs now (speed above 0). */
  clockRunning?(): boolean;
  capacity?: number;
  queueItemsBudget?: number;
}

type Unstamped<T> = Omit<T, 'seq' | 'at'>;
/** An entry before it has its place: each kind kept apart (Omit over a union would merge them). */
export type UnstampedEntry = Unstamped<JournaledCommand> | Unstamped<JournaledControlCall>;

/** A call that began: its place in the order and its engine time, recorded once it ends. */
export interface JournalTicket extends RequestsAtBegin {
  seq: number;
  at: number;
}

/** A call that began and has not ended (a skip waiting for its retry, a load for its window). */
export interface PendingCall extends JournalTicket {
  /** The command's name, or `METHOD path` of a control call. */
  what: string;
  /** The call as far as it is known at its start; absent when it cannot be replayed. */
  entry?: UnstampedEntry;
}

/** Calls held as pending at most: one whose end never comes (a dropped connection) must not grow this. */
const MAX_PENDING = 1_000;

export class Journal {
  private list: JournalEntry[] = [];
  private nextSeq = 1;
  private baseRules: FaultRule[];
  private readonly startRules: FaultRule[];
  /** Engine time of the newest entry dropped for room (null: nothing dropped). */
  private lostUpTo: number | null = null;
  private queueItems = 0;
  private closed = false;
  private readonly inFlight = new Map<number, PendingCall>();
  /** The engine time of the last call begun, and the request ticket as the first call at it began. */
  private instant: { at: number; issued: number } | undefined;
  /** Engine time the journal began: a console restarted with its data dir journaled nothing before. */
  readonly startedAt: number;
  /**
   * The seq of the last player transition recorded before the journal began (0: none): a row of
   * the start's own instant (the clock stopped across a restart) is before it or after it by this.
   */
  readonly startedAfterTransition: number;

  constructor(private readonly deps: JournalDeps) {
    this.baseRules = deps.rules();
    this.startRules = this.baseRules;
    this.startedAt = deps.now();
    this.startedAfterTransition = deps.lastTransitionSeq?.() ?? 0;
  }

  /**
   * Called as a call begins: calls are ordered by when they began, not when they ended. Until it
   * is recorded or ended, the call is pending: an export made meanwhile cannot replay it.
   */
  begin(what: string, entry?: UnstampedEntry): JournalTicket {
    const ticket: JournalTicket = { seq: this.nextSeq++, at: this.deps.now() };
    if (this.deps.clockRunning?.()) ticket.clockRan = true;
    const requests = this.deps.requests;
    if (requests) {
      ticket.requestsIssued = requests.issued;
      if (this.instant?.at !== ticket.at) this.instant = { at: ticket.at, issued: requests.issued };
      ticket.answeredAtInstant = requests.endedSince(this.instant.issued);
      ticket.requestsBegun = requests.begunCounts();
      if (requests.size > 0) ticket.whileRequestsInFlight = true;
    }
    this.inFlight.set(ticket.seq, { ...ticket, what, ...(entry ? { entry } : {}) });
    if (this.inFlight.size > MAX_PENDING) this.inFlight.delete(this.inFlight.keys().next().value!);
    return ticket;
  }

  /** A call that ended with nothing to record (refused, say). */
  end(ticket: JournalTicket): void {
    this.inFlight.delete(ticket.seq);
  }

  /** Calls that began and have not ended, oldest first. */
  pending(): PendingCall[] {
    return [...this.inFlight.values()];
  }

  /** The pending calls that can be replayed, as entries marked `pendingAtExport`, oldest first. */
  pendingEntries(): JournalEntry[] {
    return this.pending().flatMap(({ what: _what, entry, ...ticket }) =>
      entry ? [{ ...entry, ...ticket, pendingAtExport: true } as JournalEntry] : [],
    );
  }

  recordCommand(ticket: JournalTicket, entry: Unstamped<JournaledCommand>): void {
    this.end(ticket);
    this.insert({ ...entry, ...ticket } as JournaledCommand);
  }

  recordControl(ticket: JournalTicket, entry: Unstamped<JournaledControlCall>): void {
    this.end(ticket);
    this.insert({ ...entry, ...ticket } as JournaledControlCall);
  }

  /** By player, the requests begun so far (undefined: not counted here). */
  requestsBegun(): Record<string, number> | undefined {
    return this.deps.requests?.begunCounts();
  }

  /** The tickets of the players' answers that crossed (requests-in-flight.ts), the newest kept. */
  requestCrossings(): readonly RequestCrossing[] {
    return this.deps.requests?.crossings() ?? [];
  }

  /** Every entry kept, in the order the calls began. */
  entries(): readonly JournalEntry[] {
    return this.list;
  }

  /** The fault rules as they stood just before the call `seq` (from the last rule change before it). */
  rulesBefore(seq: number): FaultRule[] {
    let rules = this.baseRules;
    for (const entry of this.list) {
      if (entry.seq >= seq) break;
      if (entry.kind === 'command' && entry.rules) rules = entry.rules;
    }
    return rules.map((rule) => ({ ...rule }));
  }

  /**
   * The fault rules as they stood when the journal began, with their hits then (null once the
   * entries after them were dropped for room). Exact for a span that begins at the start: hits in
   * it are otherwise read from the traffic log, which holds no exchange that had not ended by the
   * export (a timeout rule's hit), and a rule of one answer so spent after a restart was left out
   * of the replay (restart-round-trip.test.ts).
   */
  rulesAtStart(): FaultRule[] | null {
    return this.lostUpTo === null ? this.startRules.map((rule) => ({ ...rule })) : null;
  }

  /** Engine time up to which entries were dropped for room (null: none were). */
  lostBefore(): number | null {
    return this.lostUpTo;
  }

  close(): void {
    this.closed = true;
    this.list = [];
    this.inFlight.clear();
  }

  private insert(entry: JournalEntry): void {
    if (this.closed) return;
    // Calls end out of order (a skip waits for the server): keep the list in the order they began.
    let index = this.list.length;
    while (index > 0 && this.list[index - 1]!.seq > entry.seq) index--;
    this.list.splice(index, 0, entry);
    if (entry.kind === 'command' && entry.queueBefore) this.queueItems += entry.queueBefore.items.length;
    this.trim();
  }

  private trim(): void {
    const capacity = this.deps.capacity ?? JOURNAL_CAPACITY;
    while (this.list.length > capacity) {
      const dropped = this.list.shift()!;
      this.lostUpTo = Math.max(this.lostUpTo ?? -Infinity, dropped.at);
      if (dropped.kind === 'command') {
        if (dropped.rules) this.baseRules = dropped.rules;
        if (dropped.queueBefore) this.queueItems -= dropped.queueBefore.items.length;
      }
    }
    const budget = this.deps.queueItemsBudget ?? JOURNAL_QUEUE_ITEMS_BUDGET;
    for (const entry of this.list) {
      if (this.queueItems <= budget) break;
      if (entry.kind === 'command' && entry.queueBefore) {
        this.queueItems -= entry.queueBefore.items.length;
        delete entry.queueBefore;
      }
    }
  }
}
