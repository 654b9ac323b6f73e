/**
 * Where each fleet player's queue is. Without BASE_URL, a queue of its own on the console's
 * reference server, made as the player joins and dropped when the fleet ends; with it, BASE_URL
 * with `{player}` replaced by the player's number, sent with the Authorization given.
 */
import type { QueueInput } from '../cloud-queue/queue-model.js';
import type { QueueSummary } from '../api/queue-types.js';
import { sampleTracks } from '../cloud-queue/samples.js';
import { endpointUrl } from '../player/client.js';
import { requestOnce } from '../player/http-transport.js';
import { REQUEST_TIMEOUT_MS } from '../player/retry.js';
import { UnaskedUpgrade } from '../player/unasked-upgrade.js';
import { UnfinishedHead } from '../player/unfinished-head.js';
import type { QueueSource } from './fleet.js';

/** Tracks of 2–6 min: 20 of them play for over an hour before a queue runs out. */
export const FLEET_QUEUE_ITEMS = 20;

export interface ReferenceQueues {
  create(input: QueueInput): QueueSummary;
  delete(id: string): void | Promise<void>;
}

export function referenceQueues(fleetId: string, queues: ReferenceQueues): QueueSource {
  const made: QueueSummary[] = [];
  return {
    async prepare(count, stillWanted) {
      // Made before the fleet's clock starts, a few dozen a turn: the console keeps answering meanwhile.
      for (let n = made.length + 1; n <= count && stillWanted(); n++) {
        made.push(
          queues.create({
            name: `${fleetId} player ${n}`,
            items: sampleTracks(((n - 1) % 100) * FLEET_QUEUE_ITEMS + 1, FLEET_QUEUE_ITEMS).map((track) => ({ track })),
          }),
        );
        if (n % 25 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    },
    queueOf(n) {
      const queue = made[n - 1];
      if (!queue) throw new Error(`no queue was made for player ${n}`);
      return { queueBaseUrl: queue.queueBaseUrl, httpAuthorization: queue.httpAuthorization, playOnCompletion: true };
    },
    async release() {
      for (const { id } of made.splice(0)) {
        try {
          await queues.delete(id);
        } catch {
          // Gone already (deleted by hand meanwhile): nothing left to drop.
        }
      }
    },
  };
}

/** BASE_URL for player `n`: its `{player}` replaced by the number. */
export function playerBaseUrl(baseUrl: string, n: number): string {
  return baseUrl.replaceAll('{player}', String(n));
}

export function baseUrlQueues(baseUrl: string, authorization: string | undefined): QueueSource {
  return {
    queueOf: (n) => ({
      queueBaseUrl: playerBaseUrl(baseUrl, n),
      ...(authorization ? { httpAuthorization: authorization } : {}),
      playOnCompletion: true,
    }),
  };
}

/**
 * Whether player 1's server answers at all (any status will do); a message when it cannot be
 * reached. Asked with node:http, not fetch: fetch refuses the ports browsers block (6000, 10080,
 * …) without connecting, and a staging server may well listen on one. The message names the
 * request: a server whose other endpoints answered, but whose `/version` hung, read as a network
 * problem (audit). An answer that began is an answer, as for `check` (docs/conformance.md): a
 * status line whose headers never end, one that breaks HTTP's rules, or a 101 that switches to
 * a protocol nobody asked for; only silence, a refused
 * connection or bytes that are not HTTP are no server. The wait is for the whole answer's head,
 * not for a pause between its bytes: a header line every second would never have ended it.
 */
export async function probeServer(
  baseUrl: string,
  authorization: string | undefined,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<string | null> {
  const url = new URL(endpointUrl(playerBaseUrl(baseUrl, 1), 'version'));
  const unreachable = (why: string) =>
    `the server at ${url.origin} cannot be reached: ${why} (asked of player 1's server before any player starts)`;
  try {
    const response = await requestOnce({
      method: 'GET',
      url: url.toString(),
      headers: authorization ? { authorization } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    response.destroy();
    return null;
  } catch (error) {
    // A 101 nobody asked for is a whole head: a server answered, in a protocol no player speaks (audit z1-6).
    if (error instanceof UnfinishedHead || (error as { cause?: unknown }).cause instanceof UnaskedUpgrade) return null;
    if ((error as Error).name === 'TimeoutError')
      return unreachable(`no answer to GET ${url.pathname} within ${timeoutMs / 1_000} s`);
    const cause = (error as { cause?: NodeJS.ErrnoException }).cause;
    const code = cause?.code ?? '';
    // llhttp's codes: an answer that began as HTTP and broke its rules came from a server; bytes that are not HTTP did not.
    if (code.startsWith('HPE_') && code !== 'HPE_INVALID_CONSTANT') return null;
    return unreachable(`${code || cause?.message || (error as Error).message} on GET ${url.pathname}`);
  }
}

/** As a player's request: its timeout, in real time. */
const PROBE_TIMEOUT_MS = REQUEST_TIMEOUT_MS;
