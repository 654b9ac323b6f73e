/** A player's request as a traffic log entry (target `player`). */
import type { PlayerExchange } from '../player/client.js';
import { headerBlock, type NewTrafficEntry } from './log/index.js';

export function entryOfExchange(exchange: PlayerExchange): NewTrafficEntry {
  // A base URL that is not one (see CloudQueueClient) is logged as given, under its endpoint.
  const path = URL.canParse(exchange.url) ? new URL(exchange.url).pathname : `/${exchange.endpoint}`;
  const outcome =
    exchange.status !== undefined ? 'answered' : exchange.failure?.message.includes('10 s') ? 'timeout' : 'incomplete';
  return {
    target: 'player',
    at: exchange.startedAt,
    wallAt: exchange.wallAt,
    method: exchange.method,
    url: exchange.url,
    path,
    reason: exchange.reason ?? null,
    status: exchange.status ?? null,
    // A timeout waited its 10 s of engine time, however few wall ms a fast clock took: that is its wait.
    latencyMs: outcome === 'timeout' ? Math.max(exchange.latencyMs, exchange.durationMs) : exchange.latencyMs,
    retry: exchange.retry,
    fault: exchange.fault ?? null,
    playerId: exchange.playerId,
    requestId: exchange.requestId,
    outcome,
    requestHeaders: headerBlock(exchange.requestHeaders),
    requestBody: exchange.requestBody ?? null,
    responseHeaders: headerBlock(exchange.responseHeaders ?? {}),
    responseBody: exchange.responseBody ?? null,
    // Set by cutting and masking at the turn's end: here from the start, so the entry keeps its shape.
    cut: null,
    masked: false,
    held: null,
  };
}
