/**
 * A player's exchanges as Artillery custom metrics, under `cloud_queue.`: counters add up across
 * Artillery's workers and machines, and histograms are merged by Artillery's own sketches, so a
 * distributed run reads as one. Names follow Artillery's http engine (`http.codes.200`,
 * `http.response_time`) so its report and dashboards show them beside the built-in ones.
 */
import type { FleetPlayerState } from '../../../main/engine/api/fleet-types.js';
import { isError } from '../../../main/engine/fleet/is-error.js';
import type { PlayerExchange } from '../../../main/engine/player/client.js';

/** What Artillery's engines emit on the scenario's event emitter (int-core/lib/runner.js listens). */
export interface MetricEvents {
  emit(event: 'counter', name: string, value: number): unknown;
  emit(event: 'histogram', name: string, value: number): unknown;
  emit(event: 'rate', name: string): unknown;
}

export const PREFIX = 'cloud_queue';

/**
 * Counted once a VU starts, at 0: a clean run's report says "0 violations" and "0 errors" rather
 * than nothing, and an `ensure` on either has a value to read.
 */
export function emitStart(ee: MetricEvents): void {
  ee.emit('counter', `${PREFIX}.violations`, 0);
  ee.emit('counter', `${PREFIX}.errors`, 0);
}

export function emitExchange(ee: MetricEvents, exchange: PlayerExchange): void {
  const { endpoint } = exchange;
  ee.emit('rate', `${PREFIX}.request_rate`);
  ee.emit('counter', `${PREFIX}.requests`, 1);
  ee.emit('counter', `${PREFIX}.requests.${endpoint}`, 1);
  if (exchange.reason) ee.emit('counter', `${PREFIX}.requests.${endpoint}.${exchange.reason}`, 1);
  if (exchange.retry > 0) {
    ee.emit('counter', `${PREFIX}.retries`, 1);
    ee.emit('counter', `${PREFIX}.retries.${endpoint}`, 1);
  }
  if (exchange.status === undefined) {
    // No complete answer: timed out, refused or cut off.
    ee.emit('counter', `${PREFIX}.transport_errors`, 1);
    ee.emit('counter', `${PREFIX}.transport_errors.${endpoint}`, 1);
  } else {
    ee.emit('counter', `${PREFIX}.codes.${exchange.status}`, 1);
    ee.emit('counter', `${PREFIX}.codes.${endpoint}.${exchange.status}`, 1);
  }
  // As the fleet's `errors`: an answer the player could not use, whatever the status or transport said.
  if (isError(exchange)) {
    ee.emit('counter', `${PREFIX}.errors`, 1);
    ee.emit('counter', `${PREFIX}.errors.${endpoint}`, 1);
  }
  // Wall milliseconds: what the server made the player wait, whatever the engine clock's speed.
  const latency = Math.max(exchange.latencyMs, 0);
  ee.emit('histogram', `${PREFIX}.latency`, latency);
  ee.emit('histogram', `${PREFIX}.latency.${endpoint}`, latency);
  for (const violation of exchange.violations) {
    ee.emit('counter', `${PREFIX}.violations`, 1);
    ee.emit('counter', `${PREFIX}.violations.${violation.rule}`, 1);
  }
}

/** Once a VU ends: the state its player was in, as the fleet's "players by state" counts them. */
export function emitEnd(ee: MetricEvents, state: FleetPlayerState): void {
  ee.emit('counter', `${PREFIX}.players.${state}`, 1);
}
