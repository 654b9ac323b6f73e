import type { FaultRuleView } from '../fault-types.js';
import type { TrafficSummary } from '../traffic-types.js';

/** Events of failure injection and the traffic log. */
export interface FaultTrafficEvents {
  /** The rules in match order, with their live hit counts and what shadows them. */
  'faults.changed': FaultRuleView[];
  /** Entries just stored, oldest first (batched). */
  'traffic.captured': TrafficSummary[];
  /**
   * The same batch as counts only: entries stored (the newest is `lastId`) and old ones the
   * retention cap dropped. A cue to read the log again, which costs the engine nothing to build;
   * the console's UI takes this one (see UI_OMITTED_EVENTS).
   */
  'traffic.appended': { count: number; lastId: number; dropped: number };
  /** The log was cleared or its settings changed: read it again. */
  'traffic.reset': { reason: string };
}
