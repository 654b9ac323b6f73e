/**
 * A run asks again a request whose connection the server broke three times in all, whichever case
 * sends it (review: a test that only timed a run could not tell a budget per case from one per run).
 */
import { describe, expect, it } from 'vitest';
import type { CloudQueueClient, PlayerExchange } from '../player/client.js';
import { CheckedServer } from './server.js';

/** A client whose every request meets a connection the server breaks; counts what it sends. */
function breakingClient() {
  let sent = 0;
  const dropped = async () => {
    sent++;
    const exchange = {
      failure: { kind: 'incomplete', message: 'connection failed: ECONNRESET', dropped: true },
    } as unknown as PlayerExchange;
    return { ok: false, exchange };
  };
  const client = { context: dropped, itemWindow: dropped, version: dropped, timePlayed: dropped };
  return { client: client as unknown as CloudQueueClient, sent: () => sent };
}

describe('requests whose connection the server broke', () => {
  it('are asked again three times in the whole run, 2 s apart, shared by the cases', async () => {
    const { client, sent } = breakingClient();
    const run = new CheckedServer(client, 'http://127.0.0.1:1/q/', undefined, () => undefined);
    const started = Date.now();
    const first = await run.forCase('context').context();
    expect(first.failure).toBe('connection failed: ECONNRESET');
    expect(sent()).toBe(4);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_900);
    // Another case, another endpoint: the run's retries are spent, it is judged on its first answer.
    await run.forCase('version').version();
    await run.forCase('item-window.first').itemWindow({ reason: 'load', previousWindowSize: 0, upcomingWindowSize: 1 });
    expect(sent()).toBe(6);
  }, 15_000);
});
