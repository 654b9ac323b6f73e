import type { FaultRule } from '../fault-types.js';
import type { TrafficSummary } from '../traffic-types.js';

/** Events of failure injection and the traffic log. */
export interface FaultTrafficEvents {
  /** The rules with their live hit counts. */
  'faults.changed': FaultRule[];
  /** Entries just stored, oldest first (batched). */
  'traffic.captured': TrafficSummary[];
  /** The log was cleared or its settings changed: read it again. */
  'traffic.reset': { reason: string };
}
