/**
 * A bundle's traffic entries, and what its export needs of them besides the HAR, gathered as each
 * is read (export.ts reads them a slice of time at a time). At the 100,000-entry cap a walk over
 * them afterwards touched each again, 50–100 ms a walk: three walks (the span's ends, the queues
 * used, the rules' hits) held every listener in the steps after the read (text-search.test.ts).
 */
import type { StoredTrafficEntry } from '../traffic/log/index.js';
import { playerRequestMet, type ControlAnswered, type PlayerRequestMet } from './divergence.js';
import { queueIdUsed } from './queues-used.js';

export class SpanEntries {
  readonly entries: StoredTrafficEntry[] = [];
  /** The engine time of the earliest and the latest entry (±Infinity while there is none). */
  earliest = Infinity;
  latest = -Infinity;
  /** The queues of this console the entries called, in the order they were first called. */
  readonly queueIds = new Set<string>();
  /** How many of the entries each fault rule answered, by rule id. */
  readonly faultHits = new Map<string, number>();
  /** The players' requests, and the fault rule that answered each if one did (divergence.ts). */
  readonly playerRequests: PlayerRequestMet[] = [];
  /**
   * Control API calls a fault rule answered in the route's place: they never reached the API, so
   * the journal does not hold them, and the replay does not make them (divergence.ts).
   */
  readonly controlAnswered: ControlAnswered[] = [];

  constructor(private readonly cloudQueueUrl: string) {}

  add(entry: StoredTrafficEntry): void {
    this.entries.push(entry);
    if (entry.at < this.earliest) this.earliest = entry.at;
    if (entry.at > this.latest) this.latest = entry.at;
    const queueId = queueIdUsed(entry, this.cloudQueueUrl);
    if (queueId) this.queueIds.add(queueId);
    const met = playerRequestMet(entry);
    if (met) this.playerRequests.push(met);
    const answered = controlAnsweredBy(entry);
    if (answered) this.controlAnswered.push(answered);
    if (entry.fault) this.faultHits.set(entry.fault.ruleId, (this.faultHits.get(entry.fault.ruleId) ?? 0) + 1);
  }
}

/** A control call a fault rule answered in the route's place (a latency rule lets the route answer). */
export function controlAnsweredBy(
  entry: Pick<StoredTrafficEntry, 'target' | 'fault' | 'at' | 'method' | 'path'>,
): ControlAnswered | null {
  if (entry.target !== 'control' || !entry.fault || entry.fault.action === 'latency') return null;
  return { at: entry.at, ruleId: entry.fault.ruleId, line: `${entry.method} ${entry.path}` };
}
