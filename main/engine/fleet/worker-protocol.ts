/** The messages between a fleet's main thread and its worker threads (workers.ts, fleet-worker.ts). */
import type { FaultRule } from '../api/fault-types.js';
import type { FleetStartInput } from '../api/fleet-types.js';
import type { PlayerExchange } from '../player/client.js';
import type { LoadParams } from '../player/events.js';
import type { ShareSnapshot } from './share.js';
import type { TimesLeft } from './shared-times.js';

/** The console's live `player` rules, each `times` rule with the count of its hits left all threads share. */
export interface MirroredRules {
  rules: FaultRule[];
  timesLeft: Record<string, TimesLeft>;
}

export type ToWorker =
  /** The share to play: its players' numbers and queues; answered with `ready` once loaded. */
  | {
      type: 'init';
      fleetId: string;
      input: FleetStartInput;
      numbers: number[];
      loads: LoadParams[];
      drawSeed: number;
      bodySlots: number;
      /** Per fleet timed rule (`input.faults`), the count of its `times` all threads share; null without `times`. */
      faultTimes: (TimesLeft | null)[];
    }
  /** The fleet's clock started: engine time `startAt` was at wall time `startWall`, at `speed`. */
  | ({ type: 'start'; startWall: number; startAt: number; speed: number } & MirroredRules)
  /** The console's live `player` rules now (added or removed in the Faults area while it plays). */
  | ({ type: 'rules' } & MirroredRules)
  | { type: 'snapshot'; seq: number }
  /** The fleet ended (`ranItsCourse`: at its duration, not stopped): the last snapshot, then the players close. */
  | { type: 'finish'; seq: number; ranItsCourse: boolean };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'exchange'; exchange: PlayerExchange }
  | { type: 'snapshot'; seq: number; snapshot: ShareSnapshot }
  | { type: 'failed'; message: string };
