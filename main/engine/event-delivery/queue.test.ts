/**
 * One subscription's line on its own (deliveries.ts): a callback that never answers holds at most
 * MAX_QUEUED events, the oldest waiting ones go first, and nothing of it is sent on after close.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EngineClock } from '../clock/clock.js';
import type { NewTrafficEntry } from '../traffic/log/index.js';
import type { EventSubscription } from '../store/repositories/event-subscriptions.js';
import { ManualWall } from '../testing/manual-wall.js';
import { EventDeliveries, MAX_QUEUED } from './deliveries.js';
import type { DeliveryRequest } from './transport.js';

const subscription: EventSubscription = {
  id: 'sub_1',
  keyId: 'key_1',
  integrationId: 'int_1',
  householdId: 'household-demo',
  namespace: 'groupVolume',
  targetType: 'groupId',
  targetValue: 'group-kitchen',
  lastSeqId: 0,
  createdAt: 0,
};

let clock: EngineClock;
afterEach(() => clock.close());

function line(
  answer: (request: DeliveryRequest) => Promise<{ status: number; headers: Record<string, string>; body: string }>,
) {
  clock = new EngineClock({ wall: new ManualWall(), speed: 0, settleTimeoutMs: 50 });
  const sent: DeliveryRequest[] = [];
  const entries: NewTrafficEntry[] = [];
  let seq = 0;
  const deliveries = new EventDeliveries({
    clock,
    transport: (request) => {
      sent.push(request);
      return answer(request);
    },
    target: () => ({ url: 'http://127.0.0.1:9/events', clientId: 'id', clientSecret: 'secret' }),
    nextSeqId: () => ++seq,
    onExchange: (entry) => entries.push(entry),
    changed: () => undefined,
  });
  return { deliveries, sent, entries };
}

describe('a subscription whose callback never answers', () => {
  it('holds at most MAX_QUEUED events, leaving out the oldest waiting ones', () => {
    const { deliveries, sent } = line(() => new Promise(() => undefined));
    for (let volume = 0; volume < MAX_QUEUED + 50; volume++) deliveries.enqueue(subscription, { volume });
    expect(sent).toHaveLength(1);
    expect(deliveries.queued('sub_1')).toBe(MAX_QUEUED);
    expect(deliveries.dropped('sub_1')).toBe(50);
    const dropped = deliveries.list('int_1').filter((d) => d.outcome === 'dropped');
    // The one being tried stays; those left out are the oldest behind it (seq 2 to 51).
    expect(dropped.map((d) => d.seqId).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 2));
    deliveries.close();
  });

  it('sends nothing more once closed, and ends the try in flight', async () => {
    let aborted = false;
    const { deliveries, sent, entries } = line(
      (request) =>
        new Promise((_, reject) => {
          request.signal.addEventListener('abort', () => {
            aborted = true;
            reject(new Error('aborted'));
          });
        }),
    );
    deliveries.enqueue(subscription, { volume: 1 });
    deliveries.enqueue(subscription, { volume: 2 });
    deliveries.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(aborted).toBe(true);
    expect(sent).toHaveLength(1);
    expect(entries).toHaveLength(0);
    deliveries.enqueue(subscription, { volume: 3 });
    expect(sent).toHaveLength(1);
  });
});
