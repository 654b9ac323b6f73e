/** The messages between a fleet's main thread and its worker threads (workers.ts, fleet-worker.ts). */
import type { FaultRule } from '../api/fault-types.js';
import type { FleetStartInput } from '../api/fleet-types.js';
import type { PlayerExchange } from '../player/client.js';
import type { LoadParams } from '../player/events.js';
import type { ShareSnapshot } from './share.js';

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
    }
  /** The fleet's clock started: engine time `startAt` was at wall time `startWall`, at `speed`. */
  | { type: 'start'; startWall: number; startAt: number; speed: number; rules: FaultRule[] }
  /** The console's live `player` rules now (added or removed in the Faults area while it plays). */
  | { type: 'rules'; rules: FaultRule[] }
  | { type: 'snapshot'; seq: number }
  /** The fleet ended: the last snapshot, then the players close. */
  | { type: 'finish'; seq: number };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'exchange'; exchange: PlayerExchange }
  | { type: 'snapshot'; seq: number; snapshot: ShareSnapshot }
  | { type: 'failed'; message: string };
