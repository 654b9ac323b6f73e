/**
 * Sending events (docs/contract/console.md §3 events; docs/events.md). Each subscription has its
 * own line: its events go out one at a time, in the order they were made, and a later one waits
 * until the one before is delivered or given up, so a receiver sees each subscription's sequence
 * ids in order. Lines do not wait for each other: a dead callback holds only its own.
 *
 * A try fails on a non-2xx answer, no answer within 10 s, or no connection; it is tried 3 more
 * times, 2 s, 4 s and 8 s after the failure, on the engine clock. Every try goes to the traffic log
 * (target `events`, the event's id as its request id) and to the newest tries kept per integration
 * for the OAuth area.
 *
 * Bounded: a line holds at most MAX_QUEUED events; past that the oldest one waiting is left out
 * (its sequence id is then missing at the receiver, which says that events were lost). Which
 * callback URL and secret a try uses is read when it goes out, so a URL fixed while a line waits is
 * used by its next try.
 */
import { randomUUID } from 'node:crypto';
import type { DeliveryOutcome, EventDeliveryView } from '../api/events/deliveries.js';
import type { FaultHit } from '../api/fault-types.js';
import type { TrafficOutcome } from '../api/traffic-types.js';
import type { EngineClock } from '../clock/clock.js';
import type { EventSubscription } from '../store/repositories/event-subscriptions.js';
import { headerBlock, type NewTrafficEntry } from '../traffic/log/index.js';
import { NAMESPACES } from './namespaces.js';
import { eventHeaders } from './signature.js';
import type { DeliveryTransport } from './transport.js';

export const RETRY_DELAYS_MS = [2_000, 4_000, 8_000] as const;
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Events one subscription may have waiting, the one being tried included. */
export const MAX_QUEUED = 100;
/** Tries kept per integration for the OAuth area (the traffic log keeps all of them). */
export const MAX_RECORDS = 200;

/** Where a key's events go now, and what signs them. */
export interface DeliveryTarget {
  url: string;
  clientId: string;
  clientSecret: string;
}

export interface EventDeliveriesDeps {
  clock: EngineClock;
  transport: DeliveryTransport;
  /** The key's callback URL and credentials now; null when it has no URL (or is gone). */
  target(keyId: string): DeliveryTarget | null;
  /** The next sequence id of a subscription; null when it is gone. */
  nextSeqId(subscriptionId: string): number | null;
  /** Every try, for the traffic log. */
  onExchange(entry: NewTrafficEntry): void;
  /** An integration's deliveries changed (a try ended, an event was queued or dropped). */
  changed(integrationId: string): void;
}

interface QueuedEvent {
  eventId: string;
  subscription: EventSubscription;
  seqId: number;
  body: string;
}

interface Line {
  events: QueuedEvent[];
  running: boolean;
  dropped: number;
}

interface TryResult {
  ok: boolean;
  status: number | null;
  message: string | null;
  latencyMs: number;
  fault: FaultHit | null;
}

export class EventDeliveries {
  private readonly lines = new Map<string, Line>();
  private readonly records = new Map<string, EventDeliveryView[]>();
  private nextRecordId = 1;
  private closed = false;
  /** Retries waiting on the engine clock, woken at close so their lines end. */
  private readonly waking = new Set<() => void>();
  private readonly inFlight = new Set<AbortController>();

  constructor(private readonly deps: EventDeliveriesDeps) {}

  /** Queues `body` (the namespace's object) for the subscription with its next sequence id. */
  enqueue(subscription: EventSubscription, body: unknown): void {
    // A key without a callback URL (removed since it subscribed) makes no events: they would have nowhere to go.
    if (this.closed || this.deps.target(subscription.keyId) === null) return;
    const seqId = this.deps.nextSeqId(subscription.id);
    if (seqId === null) return;
    const line = this.lineOf(subscription.id);
    line.events.push({ eventId: randomUUID(), subscription, seqId, body: JSON.stringify(body) });
    if (line.events.length > MAX_QUEUED) {
      // The one being tried stays; the oldest behind it goes.
      const [left] = line.events.splice(line.running ? 1 : 0, 1);
      line.dropped++;
      this.record(
        left!,
        0,
        {
          ok: false,
          status: null,
          message: `more than ${MAX_QUEUED} events were waiting for this subscription: the oldest waiting one was left out`,
          latencyMs: 0,
          fault: null,
        },
        'dropped',
        null,
        null,
      );
    }
    void this.run(line);
  }

  /** Events waiting for a subscription, the one being tried included. */
  queued(subscriptionId: string): number {
    return this.lines.get(subscriptionId)?.events.length ?? 0;
  }

  dropped(subscriptionId: string): number {
    return this.lines.get(subscriptionId)?.dropped ?? 0;
  }

  /** A subscription ended: what it still had waiting is not sent. */
  forget(subscriptionId: string): void {
    const line = this.lines.get(subscriptionId);
    if (!line) return;
    // The one being tried (first) finds its subscription gone at its next try.
    line.events.splice(line.running ? 1 : 0);
    this.lines.delete(subscriptionId);
  }

  /** An integration's newest tries, newest first. */
  list(integrationId: string, limit = MAX_RECORDS): EventDeliveryView[] {
    return (this.records.get(integrationId) ?? []).slice(-limit).reverse();
  }

  close(): void {
    this.closed = true;
    for (const wake of [...this.waking]) wake();
    for (const abort of this.inFlight) abort.abort(new Error('the console is closing'));
    this.lines.clear();
  }

  private lineOf(subscriptionId: string): Line {
    let line = this.lines.get(subscriptionId);
    if (!line) {
      line = { events: [], running: false, dropped: 0 };
      this.lines.set(subscriptionId, line);
    }
    return line;
  }

  private async run(line: Line): Promise<void> {
    if (line.running) return;
    line.running = true;
    try {
      while (!this.closed && line.events.length > 0) {
        await this.deliver(line.events[0]!);
        line.events.shift();
      }
    } finally {
      line.running = false;
    }
  }

  /** Every try of one event, until one is answered 2xx or the retries are used up. */
  private async deliver(event: QueuedEvent): Promise<void> {
    for (let retry = 0; !this.closed; retry++) {
      const target = this.deps.target(event.subscription.keyId);
      if (!this.lines.has(event.subscription.id) || target === null) {
        const why = target === null ? 'the key has no event callback URL any more' : 'the subscription ended';
        this.record(
          event,
          retry,
          { ok: false, status: null, message: `${why}: the event was not sent`, latencyMs: 0, fault: null },
          'dropped',
          null,
          null,
        );
        return;
      }
      const at = this.deps.clock.now();
      const result = await this.attempt(event, retry, target);
      if (this.closed) return;
      if (result.ok) {
        this.record(event, retry, result, 'delivered', at, target.url);
        return;
      }
      const delay = RETRY_DELAYS_MS[retry];
      if (delay === undefined) {
        this.record(
          event,
          retry,
          { ...result, message: `${result.message ?? 'failed'}; given up after ${RETRY_DELAYS_MS.length} retries` },
          'failed',
          at,
          target.url,
        );
        return;
      }
      this.record(event, retry, result, 'retrying', at, target.url, this.deps.clock.now() + delay);
      await this.wait(delay);
    }
  }

  private async attempt(event: QueuedEvent, retry: number, target: DeliveryTarget): Promise<TryResult> {
    const { clock } = this.deps;
    const { subscription } = event;
    const spec = NAMESPACES[subscription.namespace];
    const headers = eventHeaders(
      {
        seqId: event.seqId,
        namespace: spec.namespace,
        type: spec.type,
        targetType: spec.targetType,
        targetValue: subscription.targetValue,
        householdId: subscription.householdId,
      },
      target.clientId,
      target.clientSecret,
    );
    const requestId = `${event.eventId}#${retry}`;
    const startedAt = clock.now();
    const wallAt = Date.now();
    const wallStart = performance.now();
    const abort = new AbortController();
    this.inFlight.add(abort);
    const timeout = clock.setTimeout(
      () => abort.abort(new Error(`no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`)),
      DELIVERY_TIMEOUT_MS,
      'event delivery timeout',
    );
    let result: TryResult;
    let entry: NewTrafficEntry;
    const base = {
      target: 'events' as const,
      at: startedAt,
      wallAt,
      method: 'POST',
      url: target.url,
      path: URL.canParse(target.url) ? new URL(target.url).pathname : target.url,
      reason: null,
      retry,
      playerId: null,
      requestId: event.eventId,
      requestHeaders: headerBlock(headers),
    };
    try {
      const answer = await clock.track(
        this.deps.transport({ url: target.url, headers, body: event.body, signal: abort.signal, requestId }),
        requestId,
      );
      const latencyMs = Math.round(performance.now() - wallStart);
      const ok = answer.status >= 200 && answer.status < 300;
      result = {
        ok,
        status: answer.status,
        message: ok ? null : `the callback answered ${answer.status}`,
        latencyMs,
        fault: answer.fault ?? null,
      };
      entry = {
        ...base,
        status: answer.status,
        latencyMs,
        fault: answer.fault ?? null,
        outcome: 'answered',
        requestBody: answer.sentBody ?? event.body,
        responseHeaders: headerBlock(answer.headers),
        responseBody: answer.body,
      };
    } catch (error) {
      const latencyMs = Math.round(performance.now() - wallStart);
      const fault = (error as { fault?: FaultHit }).fault ?? null;
      const outcome: TrafficOutcome =
        abort.signal.aborted || fault?.action === 'timeout'
          ? 'timeout'
          : fault?.action === 'drop'
            ? 'dropped'
            : 'incomplete';
      const message =
        outcome === 'timeout'
          ? `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
          : fault
            ? (error as Error).message
            : connectionFailure(error);
      result = { ok: false, status: null, message, latencyMs, fault };
      entry = {
        ...base,
        status: null,
        latencyMs,
        fault,
        outcome,
        requestBody: event.body,
        responseHeaders: '',
        responseBody: null,
      };
    } finally {
      clock.clearTimeout(timeout);
      this.inFlight.delete(abort);
    }
    if (!this.closed) this.deps.onExchange(entry);
    return result;
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.waking.delete(wake);
        this.deps.clock.clearTimeout(timer);
        resolve();
      };
      const timer = this.deps.clock.setTimeout(wake, ms, 'event delivery retry');
      this.waking.add(wake);
    });
  }

  private record(
    event: QueuedEvent,
    retry: number,
    result: TryResult,
    outcome: DeliveryOutcome,
    at: number | null,
    url: string | null,
    nextTryAt: number | null = null,
  ): void {
    const { subscription } = event;
    const view: EventDeliveryView = {
      id: this.nextRecordId++,
      eventId: event.eventId,
      integrationId: subscription.integrationId,
      keyId: subscription.keyId,
      subscriptionId: subscription.id,
      namespace: subscription.namespace,
      targetValue: subscription.targetValue,
      seqId: event.seqId,
      url,
      retry,
      at: at ?? this.deps.clock.now(),
      status: result.status,
      outcome,
      message: result.message,
      latencyMs: outcome === 'dropped' ? null : result.latencyMs,
      fault: result.fault,
      nextTryAt,
    };
    const list = this.records.get(subscription.integrationId) ?? [];
    list.push(view);
    if (list.length > MAX_RECORDS) list.splice(0, list.length - MAX_RECORDS);
    this.records.set(subscription.integrationId, list);
    this.deps.changed(subscription.integrationId);
  }
}

function connectionFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return `connection failed: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
}
