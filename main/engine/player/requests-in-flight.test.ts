/**
 * The players' requests under way, and the gate a replay holds them at while it makes calls that
 * were made at once (scenarios/runner.ts).
 */
import { describe, expect, it } from 'vitest';
import type { HttpRequest, HttpResponse, HttpTransport } from './client.js';
import { PlayerRequestsInFlight } from './requests-in-flight.js';

const request = (url: string, signal = new AbortController().signal): HttpRequest => ({
  method: 'GET',
  url,
  headers: {},
  signal,
});

/** A transport that answers at once and notes the URLs it was given, in order. */
function recording(): { sent: string[]; transport: HttpTransport } {
  const sent: string[] = [];
  const transport: HttpTransport = async (r) => {
    sent.push(r.url);
    return { status: 200, headers: { get: () => null }, text: async () => '' } satisfies HttpResponse;
  };
  return { sent, transport };
}

describe('the players’ requests in flight', () => {
  it('counts requests begun and ended', () => {
    const requests = new PlayerRequestsInFlight();
    const first = requests.begin('player-kitchen');
    requests.begin('player-kitchen');
    requests.end(first);
    // An end told twice counts once.
    requests.end(first);
    expect(requests.size).toBe(1);
    expect(requests.ended).toBe(1);
  });

  it('keeps the ticket of an answer that crossed: a player’s request answered after a later one of it', () => {
    const requests = new PlayerRequestsInFlight();
    const window = requests.begin('player-kitchen', 0);
    const other = requests.begin('player-office', 0);
    const next = requests.begin('player-kitchen', 0);
    // Another player's answer is no crossing.
    requests.end(other);
    requests.end(next);
    expect(requests.crossings()).toEqual([]);
    requests.end(window, true);
    expect(requests.crossings()).toEqual([{ tickets: [window, next], at: [0, 0] }]);
  });

  it('counts no crossing for an answer that changes nothing or got none, overtaken or overtaking', () => {
    const requests = new PlayerRequestsInFlight();
    // A report's answer, a request a timeout rule held: not `withState`.
    const report = requests.begin('player-kitchen');
    requests.end(requests.begin('player-kitchen'));
    requests.end(report, false);
    const window = requests.begin('player-kitchen');
    requests.end(requests.begin('player-kitchen'), false);
    requests.end(window);
    expect(requests.crossings()).toEqual([]);
  });

  it('says how many requests begun from a ticket on have ended', () => {
    const requests = new PlayerRequestsInFlight();
    requests.end(requests.begin('player-kitchen'));
    const mark = requests.issued;
    const a = requests.begin('player-kitchen');
    requests.begin('player-kitchen');
    expect(requests.endedSince(mark)).toBe(0);
    requests.end(a);
    expect(requests.endedSince(mark)).toBe(1);
  });

  it('counts what each player began', () => {
    const requests = new PlayerRequestsInFlight();
    requests.begin('player-kitchen');
    requests.end(requests.begin('player-kitchen'));
    requests.begin('player-office');
    expect(requests.begunCounts()).toEqual({ 'player-kitchen': 2, 'player-office': 1 });
  });

  it('sends at once while not holding', async () => {
    const requests = new PlayerRequestsInFlight();
    const { sent, transport } = recording();
    await requests.gate(transport)(request('a'));
    expect(sent).toEqual(['a']);
  });

  it('holds requests until released, then sends them in the order they came', async () => {
    const requests = new PlayerRequestsInFlight();
    const { sent, transport } = recording();
    const gated = requests.gate(transport);
    requests.hold();
    const answers = [gated(request('a')), gated(request('b')), gated(request('c'))];
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([]);
    expect(requests.heldCount).toBe(3);
    // The oldest first: those answered before the next call was made.
    expect(requests.releaseOldest(1)).toBe(1);
    await answers[0];
    expect(sent).toEqual(['a']);
    expect(requests.holding).toBe(true);
    requests.release();
    await Promise.all(answers);
    expect(sent).toEqual(['a', 'b', 'c']);
    expect(requests.holding).toBe(false);
    // Released, the gate holds nothing more.
    await gated(request('d'));
    expect(sent).toEqual(['a', 'b', 'c', 'd']);
  });

  it('sends a request already given up as it comes: its transport ends it', async () => {
    const requests = new PlayerRequestsInFlight();
    const { sent, transport } = recording();
    requests.hold();
    const abort = new AbortController();
    abort.abort(new Error('gone'));
    await requests.gate(transport)(request('a', abort.signal));
    expect(sent).toEqual(['a']);
    expect(requests.heldCount).toBe(0);
  });

  it('ends a held request aborted meanwhile without sending it', async () => {
    const requests = new PlayerRequestsInFlight();
    const { sent, transport } = recording();
    requests.hold();
    const abort = new AbortController();
    const answer = requests.gate(transport)(request('a', abort.signal));
    abort.abort(new Error('no complete response within 10 s'));
    await expect(answer).rejects.toThrow('no complete response within 10 s');
    // Out of the queue: not counted as held, and never sent.
    expect(requests.heldCount).toBe(0);
    requests.release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual([]);
  });

  it('tells a waiter once a request is held, or once enough have ended', async () => {
    const requests = new PlayerRequestsInFlight();
    requests.hold();
    const held = requests.until(() => requests.heldCount > 0);
    let told = false;
    void held.reached.then(() => (told = true));
    await Promise.resolve();
    expect(told).toBe(false);
    void requests.gate(recording().transport)(request('a'));
    await held.reached;
    const ended = requests.until(() => requests.ended >= 2);
    requests.end(requests.begin('player-kitchen'));
    requests.end(requests.begin('player-kitchen'));
    await ended.reached;
    // Met already when asked: told at once.
    await requests.until(() => true).reached;
    requests.release();
  });
});
