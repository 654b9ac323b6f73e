/** What came back, in a few words: silence, an answer cut short, and one no client reads are told apart (audit). */
import { describe, expect, it } from 'vitest';
import type { PlayerExchange } from '../player/client.js';
import { outcomeOf, type Answer } from './server.js';

function answer(exchange: Partial<PlayerExchange>, failure: string): Answer {
  return {
    exchange: { method: 'GET', url: 'http://127.0.0.1/q/context', endpoint: 'context', ...exchange } as PlayerExchange,
    status: undefined,
    text: '',
    json: undefined,
    failure,
  };
}

describe('outcomeOf an answer that did not come whole', () => {
  it('no status line at all: no answer', () => {
    expect(outcomeOf(answer({}, 'connection failed: ECONNREFUSED'))).toBe(
      'no answer (connection failed: ECONNREFUSED)',
    );
  });

  it('a status line, then a body that broke off: an answer cut short, not "no answer"', () => {
    const failure = 'its 200 came, then the body broke off: ECONNRESET';
    expect(outcomeOf(answer({ responseHeaders: { 'content-encoding': 'gzip' } }, failure))).toBe(
      `an answer cut short (${failure})`,
    );
  });

  it('an answer no client reads', () => {
    const failure = 'the server redirected the request more than 20 times (a redirect loop?)';
    expect(outcomeOf(answer({ failure: { kind: 'incomplete', message: failure, unreadable: true } }, failure))).toBe(
      `an answer it cannot read: ${failure}`,
    );
  });
});
