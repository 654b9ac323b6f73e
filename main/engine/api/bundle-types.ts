/**
 * Repro bundles: what one console writes so that another can replay what it saw: the traffic as
 * HAR, the fault rules and the queues as they were when the span began, the clock, and a scenario
 * built from the engine journal. Pure types, shared with the renderer.
 *
 * The scenario names the bundle's queues through variables that an import rewrites to the queues
 * it creates: `${<ref>.url}` (the queue's root, `{cloudQueue}/queues/{id}`), `${<ref>.token}` (its
 * access token), `${<ref>.id}` (its id) and `${<ref>.<itemId>}` (an item, since a new queue hands
 * out its own ids).
 */
import type { FaultRuleInput } from './fault-types.js';
import type { HarLog } from './har-types.js';
import type { PolicyValue, QueueItem, ReportSettings } from './queue-types.js';
import type { ScenarioStep } from './scenario-types.js';
import type { ClockState } from './types.js';
import type { TrafficFilter } from './traffic-types.js';

export const BUNDLE_FORMAT = 'cloud-queue-console/repro-bundle';
/**
 * 2: the scenario is built from the engine journal (every state-changing call of the span); 1
 * (0.1.0): derived from the traffic. A version 1 bundle still imports and runs: what it cannot
 * replay is no longer expected, and its notes say so (bundles/upgrade-v1.ts).
 */
export const BUNDLE_VERSION = 2;
export const BUNDLE_VERSIONS_READ = [1, 2] as const;

/**
 * A bundle's export carries queues of up to this many items (an import takes up to 2,000,000, a
 * queue as it was exported): about 20 MB of JSON; reading 100,000 items from the store holds the
 * loop about 40 ms.
 */
export const MAX_ITEMS_IN_BUNDLE_QUEUE = 100_000;

export interface BundleQueue {
  /** The name the scenario's variables use for this queue (`queue1`). */
  ref: string;
  /** The queue's id on the console that exported it. */
  sourceId: string;
  name: string;
  container: { type?: string; imageUrl?: string };
  playbackPolicies: Record<string, PolicyValue>;
  reports: Partial<ReportSettings>;
  /** In queue order, with their ids on the exporting console. */
  items: QueueItem[];
}

export interface ReproBundle {
  format: typeof BUNDLE_FORMAT;
  version: typeof BUNDLE_VERSION;
  /** Wall time of the export (ISO 8601). */
  exportedAt: string;
  /** The exporting console's URLs, for people reading the bundle. */
  source: { console: string; control: string; cloudQueue: string };
  /** The traffic filter the bundle was made from. */
  filter: TrafficFilter;
  /** The engine clock at export: `now` for the record, `speed` applied by an import. */
  clock: ClockState;
  faults: FaultRuleInput[];
  queues: BundleQueue[];
  scenario: { name: string; description: string; steps: ScenarioStep[] };
  /** What the export could not carry over, said plainly. */
  notes: string[];
  har: HarLog;
}

export interface BundleExportInput {
  filter?: TrafficFilter;
  /** The queues to include; default: every queue of this console the traffic used. */
  queueIds?: string[];
  /** Newest entries taken (default 5,000). */
  limit?: number;
  /** Unmask secrets in the HAR (the scenario always has what it needs to run). */
  reveal?: boolean;
  name?: string;
}

export interface BundleImportResult {
  queues: { ref: string; sourceId: string; id: string; name: string; itemCount: number; queueBaseUrl: string }[];
  faults: { id: string; target: string; action: string; label?: string }[];
  scenario: { id: string; name: string; steps: number };
  clock: ClockState;
  /** Things that will not replay as they were here (a player this console lacks, say). */
  warnings: string[];
  /** What the exporting console said could not be carried over. */
  notes: string[];
}
