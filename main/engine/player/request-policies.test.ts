/**
 * The table of request policies says, for every kind of player request, its retry rule and what a
 * failure means; the retry loop beside it waits exactly what the rules compute.
 */
import { describe, expect, it } from 'vitest';
import { EngineClock } from '../clock/clock.js';
import { ManualWall } from '../testing/manual-wall.js';
import type { ClientResult, PlayerExchange } from './client.js';
import type { WindowPurpose } from './events.js';
import {
  REQUEST_POLICIES,
  RequestRetries,
  backgroundWindowKind,
  failureEvent,
  meaningOf,
  type RequestKind,
} from './request-policies.js';
import type { Failure } from './retry.js';

const incomplete: Failure = { kind: 'incomplete', message: 'reset' };
const unavailable: Failure = { kind: 'unavailable', status: 503, retryAfterSec: 5, message: '503' };
const notFound: Failure = { kind: 'notFound', status: 404, message: '404' };
const forbidden: Failure = { kind: 'other', status: 403, message: '403' };
const serverError: Failure = { kind: 'other', status: 500, message: '500' };

describe('the request policies', () => {
  it('give every kind a retry rule and a meaning for 404 and for any other failure', () => {
    for (const [kind, policy] of Object.entries(REQUEST_POLICIES)) {
      expect(['none', 'errorTypes', 'background'], kind).toContain(policy.retry);
      expect(policy.rule, kind).not.toBe('');
    }
  });

  it('read the platform: load never retries, user requests use §7.2, background work §7.4', () => {
    expect(REQUEST_POLICIES.load).toMatchObject({ retry: 'none', notFound: 'loadFails', otherwise: 'loadFails' });
    for (const kind of ['skip', 'intent', 'resume'] as const)
      expect(REQUEST_POLICIES[kind]).toMatchObject({
        waitsFor: 'user',
        retry: 'errorTypes',
        otherwise: 'playbackStops',
      });
    for (const kind of [
      'skipToItem',
      'refreshCommand',
      'nextWindow',
      'queueCompleted',
      'versionChanged',
      'versionPoll',
      'contextRefetch',
    ] as const) {
      expect(REQUEST_POLICIES[kind]).toMatchObject({
        waitsFor: 'nobody',
        retry: 'background',
        otherwise: 'windowPlaysOut',
      });
    }
  });

  it('say what a 404 means: /itemWindow empties the queue, any other request evicts the session', () => {
    const windowKinds: RequestKind[] = [
      'skip',
      'intent',
      'resume',
      'skipToItem',
      'refreshCommand',
      'nextWindow',
      'queueCompleted',
      'versionChanged',
      'refreshAfterSkipToItem',
    ];
    for (const kind of windowKinds) expect(meaningOf(kind, notFound), kind).toBe('queueEmptied');
    for (const kind of ['versionPoll', 'contextRefetch', 'report'] as const)
      expect(meaningOf(kind, notFound), kind).toBe('sessionEvicted');
    expect(meaningOf('cutOffReport', notFound)).toBe('noted');
    expect(meaningOf('load', notFound)).toBe('loadFails');
  });

  it('refuse a skip on 403 and nothing else', () => {
    expect(meaningOf('skip', forbidden)).toBe('skipRefused');
    expect(meaningOf('intent', forbidden)).toBe('playbackStops');
    expect(meaningOf('skip', serverError)).toBe('playbackStops');
  });

  it('turn each meaning into its event (none for a noted failure)', () => {
    expect(failureEvent('queueEmptied', notFound)).toEqual({ type: 'windowNotFound', failure: notFound });
    expect(failureEvent('sessionEvicted', notFound)).toEqual({ type: 'sessionNotFound', failure: notFound });
    expect(failureEvent('windowPlaysOut', serverError, 'queueCompleted')).toEqual({
      type: 'backgroundExhausted',
      failure: serverError,
      purpose: 'queueCompleted',
    });
    expect(failureEvent('windowPlaysOut', serverError)).toEqual({ type: 'backgroundExhausted', failure: serverError });
    expect(failureEvent('noted', serverError)).toBeNull();
  });

  it('name the kind of each background window purpose, and refuse a user purpose', () => {
    const background: [WindowPurpose, RequestKind][] = [
      ['refresh', 'nextWindow'],
      ['queueCompleted', 'queueCompleted'],
      ['versionChanged', 'versionChanged'],
      ['refreshCommand', 'refreshCommand'],
      ['skipToItem', 'refreshAfterSkipToItem'],
    ];
    for (const [purpose, kind] of background) expect(backgroundWindowKind(purpose)).toBe(kind);
    expect(() => backgroundWindowKind('skipNext')).toThrow(/not a background request/);
  });
});

describe('the retry loop', () => {
  /** A request that fails with `failure` after `takesMs` of engine time, each try logged. */
  function harness(failure: Failure, takesMs: number) {
    const clock = new EngineClock({ wall: new ManualWall(), speed: 0 });
    const tries: number[] = [];
    const retries = new RequestRetries({
      clock,
      label: 'p',
      closed: () => false,
      epoch: () => 1,
      onResult: () => undefined,
      onChange: () => undefined,
    });
    const send = async (retry: number): Promise<ClientResult<null>> => {
      tries.push(clock.now());
      await new Promise<void>((resolve) => clock.setTimeout(resolve, takesMs, 'answer'));
      return { ok: false, failure, exchange: { retry } as PlayerExchange };
    };
    return { clock, tries, retries, send };
  }

  it('§7.4: a background request that fails after 4 s is tried again 10 s after it was sent, four tries in all', async () => {
    const { clock, tries, retries, send } = harness(incomplete, 4_000);
    const start = clock.now();
    const done = retries.send('versionPoll', send);
    await clock.advance(60_000);
    const result = await done;
    expect(result.ok).toBe(false);
    expect(tries.map((at) => at - start)).toEqual([0, 10_000, 20_000, 30_000]);
  });

  it('§7.2: a 503 to a user request is tried again Retry-After (5 s) after the failure, three retries', async () => {
    const { clock, tries, retries, send } = harness(unavailable, 1_000);
    const start = clock.now();
    const done = retries.send('skip', send);
    await clock.advance(60_000);
    await done;
    expect(tries.map((at) => at - start)).toEqual([0, 6_000, 12_000, 18_000]);
  });

  it('shows each wait while it runs, and stops retrying once the request is no longer wanted', async () => {
    const { clock, tries, retries, send } = harness(incomplete, 0);
    let wanted = true;
    const done = retries.send('resume', send, () => wanted);
    await clock.advance(0);
    expect(retries.waiting()).toMatchObject([{ background: false, retry: 1, of: 3 }]);
    wanted = false;
    expect(retries.waiting()).toEqual([]);
    await clock.advance(10_000);
    await done;
    expect(tries).toHaveLength(1);
  });

  it('never retries a load (§7.3) nor a server error (§7.2)', async () => {
    for (const [kind, failure] of [
      ['load', incomplete],
      ['nextWindow', serverError],
      ['skip', serverError],
    ] as const) {
      const { clock, tries, retries, send } = harness(failure, 0);
      const done = retries.send(kind, send);
      await clock.advance(60_000);
      await done;
      expect(tries, kind).toHaveLength(1);
    }
  });
});
