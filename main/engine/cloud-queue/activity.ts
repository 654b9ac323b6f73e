/**
 * What each player did at each queue, as the editor shows it: per queue and per `X-Player-Id`
 * (docs/contract/console.md §5), the last request of each kind, the last itemWindow request with the window it
 * got, and the last timePlayed report (every report is also stored, see the repository). Live
 * observation, kept in memory: after a restart players start over anyway.
 */
import type { EngineEvents } from '../api/events.js';
import type {
  CloudQueueRequestKind,
  ItemWindowRecord,
  PlayerQueueActivity,
  QueueActivityView,
  TimePlayedRecordView,
} from '../api/queue-types.js';

interface Entry {
  lastRequest: PlayerQueueActivity['lastRequest'];
  itemWindow: ItemWindowRecord | null;
  lastReport: TimePlayedRecordView | null;
}

export interface QueueActivityOptions {
  emit: (name: 'queues.activity', data: EngineEvents['queues.activity']) => void;
  /** The household player's name for an X-Player-Id, when it is one of ours. */
  playerName: (playerId: string) => string | null;
}

export class QueueActivity {
  private readonly queues = new Map<string, Map<string | null, Entry>>();

  constructor(private readonly options: QueueActivityOptions) {}

  request(queueId: string, playerId: string | null, kind: CloudQueueRequestKind, at: number, status: number): void {
    this.entry(queueId, playerId).lastRequest = { kind, at, status };
    this.options.emit('queues.activity', { queueId, playerId, kind, at, status });
  }

  itemWindow(queueId: string, playerId: string | null, record: ItemWindowRecord): void {
    this.entry(queueId, playerId).itemWindow = record;
    this.request(queueId, playerId, 'itemWindow', record.at, record.status);
  }

  timePlayed(queueId: string, playerId: string | null, reports: readonly TimePlayedRecordView[], at: number): void {
    const last = reports.at(-1);
    if (last) this.entry(queueId, playerId).lastReport = last;
    this.request(queueId, playerId, 'timePlayed', at, 204);
  }

  view(queueId: string): QueueActivityView {
    const players = [...(this.queues.get(queueId) ?? new Map<string | null, Entry>()).entries()].map(([playerId, entry]) => ({
      playerId,
      playerName: playerId === null ? null : this.options.playerName(playerId),
      ...entry,
      currentItemId: currentItem(entry),
    }));
    players.sort((a, b) => b.lastRequest.at - a.lastRequest.at);
    return { queueId, players };
  }

  forget(queueId: string): void {
    this.queues.delete(queueId);
  }

  private entry(queueId: string, playerId: string | null): Entry {
    let players = this.queues.get(queueId);
    if (!players) this.queues.set(queueId, (players = new Map()));
    let entry = players.get(playerId);
    if (!entry) {
      entry = { lastRequest: { kind: 'context', at: 0, status: 0 }, itemWindow: null, lastReport: null };
      players.set(playerId, entry);
    }
    return entry;
  }
}

/** The later of: the item of the last report, the anchor of the last window that was served. */
function currentItem(entry: Entry): string | null {
  const window = entry.itemWindow?.window ? entry.itemWindow : null;
  const report = entry.lastReport;
  if (report && (!window || report.receivedAt >= window.at)) return report.itemId;
  return window?.window?.anchorItemId ?? null;
}
