/**
 * Which of a fleet's exchanges go to the traffic log: every failure and every violation, and
 * the rest at a set rate (drawn by each share from a seeded generator, share.ts, so a run logs the
 * same ones again), up to a cap per fleet. The fleet's main thread keeps the log: each share posts
 * it the exchanges it picked, and this keeps the cap. A violation of a rule not seen before is
 * logged even past the cap: it is the one sample that rule is shown with. The log's own retention
 * caps bound it as well.
 */
import type { FleetViolationStats } from '../api/fleet-types.js';
import type { PlayerExchange } from '../player/client.js';
import { sampleOf } from './metrics.js';

/** The most exchanges one fleet puts in the log: a fifth of its default retention. */
export const FLEET_TRAFFIC_CAP = 20_000;
export const DEFAULT_TRAFFIC_SAMPLE_RATE = 0.01;

export interface TrafficSamplerOptions {
  /** Records an exchange; answers its entry's id (null when capture is off). */
  add: (exchange: PlayerExchange) => number | null | void;
  cap?: number;
}

export class TrafficSampler {
  logged = 0;
  /** Picked by a share, but past the cap. */
  skipped = 0;
  /** The first exchange that broke each rule, as the log holds it. */
  readonly samples = new Map<string, FleetViolationStats['sample']>();
  private readonly cap: number;

  constructor(private readonly options: TrafficSamplerOptions) {
    this.cap = options.cap ?? FLEET_TRAFFIC_CAP;
  }

  /** Logs an exchange a share picked, unless past the cap; sets its `trafficId` either way. */
  admit(exchange: PlayerExchange): void {
    const firstOfItsRule = exchange.violations.some((v) => !this.samples.has(v.rule));
    if (!firstOfItsRule && this.logged >= this.cap) {
      this.skipped++;
      exchange.trafficId = null;
      return;
    }
    this.logged++;
    const id = this.options.add(exchange);
    exchange.trafficId = typeof id === 'number' ? id : null;
    for (const violation of exchange.violations)
      if (!this.samples.has(violation.rule)) this.samples.set(violation.rule, sampleOf(exchange));
  }
}
