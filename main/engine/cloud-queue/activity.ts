/**
 * What each player did at each queue, as the editor shows it: per queue and per `X-Player-Id`
 * (docs/contract/console.md §5), the last request of each kind, the last itemWindow request with the window it
 * got, and the last timePlayed report (every report is also stored, see the repository). Live
 * observation, kept in memory; a queue first asked about after a start begins from each player's
 * newest stored report, since players come back after a restart (docs/persistence.md) and a panel
 * saying that none had called, beside their reports, was wrong.
 *
 * Bounded (docs/contract/console.md §9): only requests with the queue's valid token are recorded
 * (the server never calls here for a 401), each queue keeps the MAX_PLAYERS_PER_QUEUE players
 * heard from last, and every id or text a player sent is kept to MAX_RECORDED_TEXT characters.
 * Without that, 2,000 requests with long made-up ids and no token grew the engine by 74 MB.
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
  /** Each player's newest stored report for the queue, newest first (at most `limit`); none when it has none. */
  storedReports?: (queueId: string, limit: number) => readonly TimePlayedRecordView[];
}

/** Players kept per queue: more than any household has, few enough that a flood of made-up ids costs little. */
export const MAX_PLAYERS_PER_QUEUE = 50;
/** Characters kept of an id or a text a player sent (X-Player-Id, X-Request-Id, query values); cut ones end in `…`. */
export const MAX_RECORDED_TEXT = 200;

/** `value` as it is kept: the same string when short enough, else its start and `…`. */
export function recordedText<T extends string | null>(value: T): T {
  return (value !== null && value.length > MAX_RECORDED_TEXT ? `${value.slice(0, MAX_RECORDED_TEXT)}…` : value) as T;
}

export class QueueActivity {
  private readonly queues = new Map<string, Map<string | null, Entry>>();

  constructor(private readonly options: QueueActivityOptions) {}

  /** A request the queue's token allowed (a 401 is not recorded: anyone can send one). */
  request(queueId: string, playerId: string | null, kind: CloudQueueRequestKind, at: number, status: number): void {
    const kept = recordedText(playerId);
    this.entry(queueId, kept).lastRequest = { kind, at, status };
    this.options.emit('queues.activity', { queueId, playerId: kept, kind, at, status });
  }

  itemWindow(queueId: string, playerId: string | null, record: ItemWindowRecord): void {
    // In place: the record is made per request for this (see the server), and a copy costs there.
    record.requestId = recordedText(record.requestId);
    record.reason = recordedText(record.reason);
    record.itemId = recordedText(record.itemId);
    record.queueVersion = recordedText(record.queueVersion);
    if (record.error !== undefined) record.error = recordedText(record.error);
    this.entry(queueId, recordedText(playerId)).itemWindow = record;
    this.request(queueId, playerId, 'itemWindow', record.at, record.status);
  }

  timePlayed(queueId: string, playerId: string | null, reports: readonly TimePlayedRecordView[], at: number): void {
    const last = reports.at(-1);
    if (last) this.entry(queueId, recordedText(playerId)).lastReport = last;
    this.request(queueId, playerId, 'timePlayed', at, 204);
  }

  view(queueId: string): QueueActivityView {
    // Newest first; players heard from at the same engine moment (a stopped clock) by the order heard.
    const players = [...this.playersOf(queueId).entries()].reverse().map(([playerId, entry]) => ({
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

  /** The player's entry, made the queue's newest (a Map keeps insertion order: the oldest goes first). */
  private entry(queueId: string, playerId: string | null): Entry {
    const players = this.playersOf(queueId);
    let entry = players.get(playerId);
    if (entry) players.delete(playerId);
    else entry = { lastRequest: { kind: 'context', at: 0, status: 0 }, itemWindow: null, lastReport: null };
    players.set(playerId, entry);
    if (players.size > MAX_PLAYERS_PER_QUEUE) players.delete(players.keys().next().value!);
    return entry;
  }

  /** The queue's players, oldest first; the first time it is asked about, those its stored reports name. */
  private playersOf(queueId: string): Map<string | null, Entry> {
    let players = this.queues.get(queueId);
    if (players) return players;
    players = new Map();
    const stored = this.options.storedReports?.(queueId, MAX_PLAYERS_PER_QUEUE) ?? [];
    for (let i = stored.length - 1; i >= 0; i--) {
      const report = stored[i]!;
      // Stored, so it was taken: the server answers a report it keeps 204.
      players.set(recordedText(report.playerId), {
        lastRequest: { kind: 'timePlayed', at: report.receivedAt, status: 204 },
        itemWindow: null,
        lastReport: report,
      });
    }
    this.queues.set(queueId, players);
    return players;
  }
}

/** The later of: the item of the last report, the anchor of the last window that was served. */
function currentItem(entry: Entry): string | null {
  const window = entry.itemWindow?.window ? entry.itemWindow : null;
  const report = entry.lastReport;
  if (report && (!window || report.receivedAt >= window.at)) return report.itemId;
  return window?.window?.anchorItemId ?? null;
}
