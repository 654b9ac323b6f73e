/** What repro bundles read and write: the traffic, the queues, the fault rules, the clock. */
import type { ServiceUrls } from '../api/types.js';
import type { EngineClock } from '../clock/clock.js';
import type { QueueModel } from '../cloud-queue/queue-model.js';
import type { FaultRegistry } from '../faults/registry.js';
import type { Journal } from '../journal/journal.js';
import type { PlayerRegistry } from '../player/registry.js';
import type { Store } from '../store/store.js';
import type { TrafficLogStore } from '../traffic/log/index.js';
import type { TrafficRecorder } from '../traffic/recorder.js';

export interface BundleDeps {
  store: Pick<Store, 'playerTransitions' | 'players' | 'groups' | 'scenarios' | 'queues' | 'transaction'>;
  /** What an export reads (an import writes no traffic). */
  traffic: Pick<TrafficLogStore, 'searched' | 'latestIds' | 'get' | 'page'>;
  queues: Pick<QueueModel, 'head' | 'get' | 'create' | 'itemIds' | 'writes'>;
  faults: Pick<FaultRegistry, 'list' | 'add' | 'remove'>;
  players: Pick<PlayerRegistry, 'forSession' | 'all'>;
  clock: Pick<EngineClock, 'state' | 'setSpeed'>;
  recorder: Pick<TrafficRecorder, 'flush'>;
  /** Every state-changing call: what the scenario is built from. */
  journal: Pick<
    Journal,
    | 'entries'
    | 'rulesBefore'
    | 'rulesAtStart'
    | 'lostBefore'
    | 'startedAt'
    | 'startedAfterTransition'
    | 'pending'
    | 'pendingEntries'
    | 'requestCrossings'
    | 'requestsBegun'
  >;
  urls: () => ServiceUrls;
  /** Wall time, for the bundle's `exportedAt`. */
  wallNow: () => number;
}
