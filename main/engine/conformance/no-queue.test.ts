/**
 * A run whose deadline passed before the server answered anything ends as unreachable
 * (docs/contract/console.md §8), whatever the deadline cut short; a status line that came, even
 * with a body that never ended, is an answer.
 */
import { describe, expect, it } from 'vitest';
import type { PlayerExchange } from '../player/client.js';
import { silentUntil } from './no-queue.js';
import type { Answer } from './server.js';

const DEADLINE = "the run's deadline of 20 s passed";
const BASE = 'http://127.0.0.1:1/q/';

function answer(exchange: Partial<PlayerExchange>, failure?: string): Answer {
  return {
    exchange: { requestHeaders: {}, violations: [], ...exchange } as PlayerExchange,
    status: exchange.status,
    text: '',
    json: undefined,
    failure,
  };
}

describe('silentUntil', () => {
  it('says why nothing answered: the first failure, and the deadline after it', () => {
    expect(silentUntil(BASE, [answer({}, 'no complete response within 10 s')], DEADLINE)).toBe(
      `cannot reach the cloud queue server at ${BASE}: no complete response within 10 s, and nothing else answered before ${DEADLINE}`,
    );
  });

  it('says only the deadline when it is what stopped the first request, or nothing was heard at all', () => {
    const said = `cannot reach the cloud queue server at ${BASE}: no answer before ${DEADLINE}`;
    expect(silentUntil(BASE, [answer({}, `connection failed: ${DEADLINE}`)], DEADLINE)).toBe(said);
    expect(silentUntil(BASE, [], DEADLINE)).toBe(said);
  });

  it('is null once anything answered: a status, one over the cap, or a head whose body did not end', () => {
    expect(silentUntil(BASE, [answer({}, 'x'), answer({ status: 500 })], DEADLINE)).toBeNull();
    expect(
      silentUntil(BASE, [answer({ failure: { kind: 'other', status: 200, message: 'over 1 MB' } }, 'over')], DEADLINE),
    ).toBeNull();
    expect(
      silentUntil(BASE, [answer({ responseHeaders: { 'content-type': 'application/json' } }, 'stalled')], DEADLINE),
    ).toBeNull();
  });
});
