/** The recorder's batching: when buffered exchanges reach the log and its listeners. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UI_OMITTED_EVENTS, type EngineEvent } from '../api/events.js';
import type { TrafficSummary } from '../api/traffic-types.js';
import { EventBus } from '../events/bus.js';
import { silentLogger } from '../log.js';
import type { Store } from '../store/store.js';
import { testTrafficEntry } from '../testing/traffic.js';
import { EngineWarnings } from '../warnings.js';
import { openStoreWithTrafficLog, type TrafficLogStore } from './log/index.js';
import { FLUSH_AT, TrafficRecorder } from './recorder.js';

const opened: Store[] = [];

afterEach(() => {
  vi.useRealTimers();
  for (const store of opened.splice(0)) store.close();
});

function recorder(warnings?: EngineWarnings) {
  const { store, traffic: log } = openStoreWithTrafficLog({ dataDir: null });
  opened.push(store);
  const bus = new EventBus();
  const batches: TrafficSummary[][] = [];
  bus.on('traffic.captured', (batch) => batches.push(batch));
  return { store, log, batches, recorder: new TrafficRecorder({ repo: log, settings: store.settings, bus, warnings }) };
}

const count = (log: TrafficLogStore) => log.page({}, 0, 1).total;

describe('the traffic recorder', () => {
  it('writes a full batch at once, without waiting for its timer', () => {
    vi.useFakeTimers();
    const { log, batches, recorder: traffic } = recorder();
    for (let i = 0; i < FLUSH_AT - 1; i++) traffic.add(testTrafficEntry({ at: i }));
    expect(count(log)).toBe(0);
    traffic.add(testTrafficEntry({ at: FLUSH_AT - 1 }));
    expect(count(log)).toBe(FLUSH_AT);
    expect(batches.map((batch) => batch.length)).toEqual([FLUSH_AT]);
    expect(batches[0]!.map((summary) => summary.at)).toEqual(Array.from({ length: FLUSH_AT }, (_, i) => i));
  });

  it('warns of a batch it could not store (logged, and kept for the status bar), drops it, and stores the next one', () => {
    const failures: string[] = [];
    const warnings = new EngineWarnings({
      emit: () => undefined,
      wallNow: () => 1_000,
      log: { ...silentLogger, error: (message) => void failures.push(message) },
    });
    const { store, log, batches, recorder: traffic } = recorder(warnings);
    store.db.exec(
      "CREATE TEMP TRIGGER disk_full BEFORE INSERT ON log.traffic_segments BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    traffic.add(testTrafficEntry());
    traffic.flush();
    const message = 'traffic could not be stored (disk full): those exchanges are missing from the log';
    expect(failures).toEqual([message]);
    // The failed batch is gone: nothing is left to fail again.
    traffic.flush();
    traffic.add(testTrafficEntry());
    traffic.flush();
    expect(warnings.list()).toEqual([{ source: 'traffic-log', message, firstAt: 1_000, lastAt: 1_000, count: 2 }]);
    expect(batches).toEqual([]);
    store.db.exec('DROP TRIGGER disk_full');
    traffic.add(testTrafficEntry());
    traffic.flush();
    expect(count(log)).toBe(1);
    expect(batches).toHaveLength(1);
  });

  it('writes a batch of large bodies before it has FLUSH_AT entries', () => {
    vi.useFakeTimers();
    const { log, recorder: traffic } = recorder();
    // Request bodies are kept in their entries (up to 64 KiB each), not shared.
    for (let i = 0; i < 63; i++) traffic.add(testTrafficEntry({ requestBody: `${i}`.padEnd(64 * 1024, 'x') }));
    expect(count(log)).toBe(0);
    traffic.add(testTrafficEntry({ requestBody: 'x'.repeat(64 * 1024) }));
    expect(count(log)).toBe(64);
  });

  it('writes a part batch once its timer runs out', () => {
    vi.useFakeTimers();
    const { log, batches, recorder: traffic } = recorder();
    traffic.add(testTrafficEntry());
    traffic.add(testTrafficEntry());
    vi.advanceTimersByTime(99);
    expect(count(log)).toBe(0);
    vi.advanceTimersByTime(1);
    expect(count(log)).toBe(2);
    expect(batches.map((batch) => batch.length)).toEqual([2]);
  });
  it('only takes an exchange over on the request path, and masks and encodes it at the end of the turn', async () => {
    const { store, log, recorder: traffic } = recorder();
    const secret = 'Bearer tok-handed-over-0123456789';
    const ids = [1, 2, 3].map(() => traffic.add(testTrafficEntry({ requestHeaders: `Authorization: ${secret}\r\n` })));
    expect(ids).toEqual([1, 2, 3]);
    // Nothing encoded yet, and nothing of it anywhere the store could write it.
    expect(log.stagedEntries).toBe(0);
    const rows = () => store.db.prepare('SELECT detail FROM traffic_segments').all() as { detail: Buffer }[];
    expect(rows()).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.stagedEntries).toBe(3);
    // Handed over in the next turn: the ids go on after those promised.
    expect(traffic.add(testTrafficEntry())).toBe(4);
    traffic.flush();
    expect(log.get(3, true)!.requestHeaders.authorization).toBe(secret);
    for (const { detail } of rows()) expect(detail.toString('utf8')).not.toContain('tok-handed-over');
    // A clear skips the ids promised to exchanges not yet encoded.
    expect(traffic.add(testTrafficEntry())).toBe(5);
    traffic.clear();
    expect(traffic.add(testTrafficEntry())).toBe(6);
    traffic.flush();
    expect(log.page({}, 0, 10).rows.map((row) => row.id)).toEqual([6]);
  });

  it('gives the UI, which omits traffic.captured, only the counts of each batch, and then decodes no summaries', () => {
    const { store, traffic: log } = openStoreWithTrafficLog({ dataDir: null });
    opened.push(store);
    const bus = new EventBus();
    const seen: EngineEvent[] = [];
    bus.subscribe((event) => seen.push(event), UI_OMITTED_EVENTS);
    const commit = vi.spyOn(log, 'commit');
    const traffic = new TrafficRecorder({ repo: log, settings: store.settings, bus });
    traffic.configure({ retention: 3 });
    for (let i = 0; i < 5; i++) traffic.add(testTrafficEntry());
    traffic.flush();
    expect(commit).toHaveBeenLastCalledWith(3, false);
    expect(seen.map((event) => [event.name, event.data])).toEqual([
      ['traffic.appended', { count: 5, lastId: 5, dropped: 2 }],
    ]);
  });
});
