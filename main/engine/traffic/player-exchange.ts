/** A player's request as a traffic log entry (target `player`). */
import type { PlayerExchange } from '../player/client.js';
import { headerBlock, type NewTrafficEntry } from './log/index.js';

export function entryOfExchange(exchange: PlayerExchange): NewTrafficEntry {
  // A base URL that is not one (see CloudQueueClient) is logged as given, under its endpoint.
  const path = URL.canParse(exchange.url) ? new URL(exchange.url).pathname : `/${exchange.endpoint}`;
  return {
    target: 'player',
    at: exchange.startedAt,
    wallAt: exchange.wallAt,
    method: exchange.method,
    url: exchange.url,
    path,
    reason: exchange.reason ?? null,
    status: exchange.status ?? null,
    latencyMs: exchange.latencyMs,
    retry: exchange.retry,
    fault: exchange.fault ?? null,
    playerId: exchange.playerId,
    requestId: exchange.requestId,
    outcome: exchange.status !== undefined ? 'answered' : exchange.failure?.message.includes('10 s') ? 'timeout' : 'incomplete',
    requestHeaders: headerBlock(exchange.requestHeaders),
    requestBody: exchange.requestBody ?? null,
    responseHeaders: headerBlock(exchange.responseHeaders ?? {}),
    responseBody: exchange.responseBody ?? null,
  };
}
