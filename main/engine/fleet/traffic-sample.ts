/**
 * Which of a fleet's exchanges go to the traffic log: every failure and every violation, and
 * the rest at a set rate (drawn from a seeded generator, so a run logs the same ones again), up to
 * a cap per fleet. A violation of a rule not seen before is logged even past the cap: it is the
 * one sample that rule is shown with. The log's own retention caps bound it as well.
 */
import type { PlayerExchange } from '../player/client.js';
import { SeededRandom } from '../faults/random.js';
import { isError } from './metrics.js';

/** The most exchanges one fleet puts in the log: a fifth of its default retention. */
export const FLEET_TRAFFIC_CAP = 20_000;
export const DEFAULT_TRAFFIC_SAMPLE_RATE = 0.01;

export interface TrafficSamplerOptions {
  /** Records an exchange; answers its entry's id (null when capture is off). */
  add: (exchange: PlayerExchange) => number | null | void;
  rate: number;
  seed: number;
  cap?: number;
}

export class TrafficSampler {
  logged = 0;
  skipped = 0;
  private readonly random: SeededRandom;
  private readonly cap: number;

  constructor(private readonly options: TrafficSamplerOptions) {
    this.random = new SeededRandom(options.seed ^ 0x5a5a5a5a);
    this.cap = options.cap ?? FLEET_TRAFFIC_CAP;
  }

  /** Logs the exchange or not; sets its `trafficId` either way. */
  offer(exchange: PlayerExchange, firstOfItsRule: boolean): void {
    const notable = isError(exchange) || exchange.violations.length > 0;
    const wanted = firstOfItsRule || (this.logged < this.cap && (notable || this.random.next() < this.options.rate));
    if (!wanted) {
      this.skipped++;
      exchange.trafficId = null;
      return;
    }
    this.logged++;
    const id = this.options.add(exchange);
    exchange.trafficId = typeof id === 'number' ? id : null;
  }
}
