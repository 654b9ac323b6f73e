/**
 * A text search over a full traffic log never holds the other listeners 250 ms
 * (docs/contract/console.md §9). The attack: `traffic.page`, `traffic.locate`, `GET /traffic`, a
 * HAR or a bundle export with a `text` filter over 100,000 entries (the default retention) read
 * every stored segment in one turn: 262–417 ms, and 2–4 s with bodies that differ from entry to
 * entry, during which no listener answered. A bundle of every entry, unfiltered, held them
 * 310–377 ms in the steps after reading its entries (audit).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ReproBundle } from '../api/bundle-types.js';
import type { HarLog } from '../api/har-types.js';
import type { TrafficEntry, TrafficSummary } from '../api/traffic-types.js';
import type { Engine } from '../index.js';
import { admin, startTestEngine } from '../testing/http.js';
import { tempDirs } from '../testing/temp-dirs.js';
import { testTrafficEntry } from '../testing/traffic.js';
import { openStoreWithTrafficLog, type NewTrafficEntry } from './log/index.js';
import { probeStalls, slowest } from '../testing/stall-probe.js';

const tempDir = tempDirs('cqc-text-search-');
const STALL_MS = 250;
/** The default retention keeps 100,000: room is left for what the console captures meanwhile, which would drop the oldest. */
const ENTRIES = 99_000;
/** What the recorder writes at most per segment (FLUSH_AT). */
const PER_SEGMENT = 2_000;
const NEEDLE = 'NeEdLe-Z9';

/**
 * Entry `i` of the filled log: player-like traffic (a window body of ~600 characters, shared by a few
 * entries; a report's request body), the needle in its URL, request body, own response body or a
 * shared body for a few of them, in any case. Which ones hold it is what `holdsNeedle` says.
 */
function filled(i: number): NewTrafficEntry {
  const window = i % 20_000;
  const items = Array.from({ length: 4 }, (_, k) => ({
    id: `item-${window * 10 + k}`,
    track: { name: `Track ${window}-${k} `.padEnd(100, 'x') },
  }));
  const sharedNeedle = window % 4_999 === 7 ? `needle-z9 ${window}` : '';
  return testTrafficEntry({
    path: `/fill/${i}`,
    url: `http://127.0.0.1:9003/queues/q${i % 50}/v2.3/itemWindow?itemId=item-${i}${i % 9_973 === 1 ? `&x=${NEEDLE}` : ''}`,
    requestBody:
      i % 3 === 0
        ? JSON.stringify({ playbackState: 'PLAYING', itemId: `item-${i}`, note: i % 7_919 === 5 ? 'NEEDLE-z9' : '' })
        : null,
    responseBody: i % 6_007 === 3 ? `short ${NEEDLE.toUpperCase()}` : JSON.stringify({ items, note: sharedNeedle }),
  });
}

const holdsNeedle = (i: number) =>
  i % 9_973 === 1 || (i % 3 === 0 && i % 7_919 === 5) || i % 6_007 === 3 || (i % 20_000) % 4_999 === 7;

/** A data dir whose traffic log holds ENTRIES entries, written through the log's own API in recorder-sized segments. */
function fullLog(): string {
  const dataDir = tempDir();
  const { store, traffic } = openStoreWithTrafficLog({ dataDir });
  try {
    for (let first = 0; first < ENTRIES; first += PER_SEGMENT) {
      traffic.append(
        Array.from({ length: Math.min(PER_SEGMENT, ENTRIES - first) }, (_, k) => filled(first + k)),
        ENTRIES,
      );
    }
  } finally {
    store.close();
  }
  return dataDir;
}

/** Another listener's answers while a search runs: `GET /admin/api/clock` (testing/stall-probe.ts). */
const probe = (engine: Engine) =>
  probeStalls(`${engine.urls.console}/admin/api/clock`, { headers: { authorization: `Bearer ${engine.adminToken}` } });

const command = async <T>(engine: Engine, name: string, input: unknown): Promise<T> => {
  const { status, body } = await admin(engine, 'POST', `/commands/${name}`, input);
  expect(status, JSON.stringify(body)).toBe(200);
  return body as T;
};

describe('a text search over a full traffic log', () => {
  let engine: Engine | null = null;
  afterEach(async () => {
    await engine?.close();
    engine = null;
  });

  it(
    'answers what a filter of every entry answers, while another listener answers within 250 ms every time',
    { timeout: 120_000 },
    async () => {
      engine = await startTestEngine({ dataDir: fullLog(), clockSpeed: 0 });
      const expected = Array.from({ length: ENTRIES }, (_, i) => i)
        .filter(holdsNeedle)
        .map((i) => `/fill/${i}`);
      expect(expected.length).toBeGreaterThan(20);

      // A fresh engine loads the schemas' compiler and TypeBox's Value on its first REST call
      // (api/lazy-typebox.ts), 100–200 ms from sources: start-up's cost, not the search's, so the
      // probe's own call is made once before it starts.
      expect((await admin(engine, 'GET', '/clock')).status).toBe(200);
      const started = performance.now();
      const player = await probe(engine);
      // Two new texts at once (two walks, one after the other), then the same texts in another
      // case and with another filter, brought up to date from where their walks stopped. The
      // first finds only the filled entries; the others leave out the console's own requests,
      // which hold the text by then.
      const [page, har] = await Promise.all([
        command<{ total: number; rows: TrafficSummary[] }>(engine, 'traffic.page', {
          filter: { text: 'needle-z9' },
          offset: 0,
          limit: 1_000,
        }),
        admin(engine, 'POST', '/traffic/har', { filter: { text: 'EEDLE-Z9', target: 'cloudQueue' } }).then(
          ({ body }) => body as HarLog,
        ),
      ]);
      const sharedNeedle = page.rows.find((row) => row.path === `/fill/${(4_999 + 7) % 20_000}`)!;
      const located = await command<{ index: number | null }>(engine, 'traffic.locate', {
        filter: { text: 'NEEDLE-Z9', target: 'cloudQueue' },
        id: sharedNeedle.id,
      });
      const listed = (
        await admin(engine, 'GET', `/traffic?text=${encodeURIComponent('eedle-z9')}&target=cloudQueue&limit=5000`)
      ).body as TrafficEntry[];
      const bundle = (
        await admin(engine, 'POST', '/bundles/export', { filter: { text: 'Needle-Z9', target: 'cloudQueue' } })
      ).body as ReproBundle;
      const times = await player.stop();
      expect(performance.now() - started).toBeLessThan(30_000);

      expect(page.rows.map((row) => row.path)).toEqual(expected);
      expect(page.total).toBe(expected.length);
      expect(located.index).toBe(expected.indexOf(sharedNeedle.path));
      expect(listed.map((entry) => entry.path)).toEqual(expected);
      expect(har.log.entries).toHaveLength(expected.length);
      expect(bundle.har.log.entries).toHaveLength(expected.length);

      expect(Math.max(...times), `the slowest GET /admin/api/clock answers (ms): ${slowest(times)}`).toBeLessThan(
        STALL_MS,
      );
    },
  );

  it(
    'exports a bundle of every entry (the 100,000 cap) while another listener answers within 250 ms every time (audit)',
    { timeout: 120_000 },
    async () => {
      engine = await startTestEngine({ dataDir: fullLog(), clockSpeed: 0 });
      expect((await admin(engine, 'GET', '/clock')).status).toBe(200);
      const player = await probe(engine);
      // Read as bytes: parsing 8 MB here would hold the engine's loop, which is this test's too: a stall of the test's own.
      const response = await fetch(`${engine.urls.console}/admin/api/bundles/export`, {
        method: 'POST',
        headers: { authorization: `Bearer ${engine.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ limit: 100_000 }),
      });
      const bytes = (await response.arrayBuffer()).byteLength;
      const times = await player.stop();
      expect(response.status).toBe(200);
      expect(bytes).toBeGreaterThan(1_000_000);
      expect(Math.max(...times), `the slowest GET /admin/api/clock answers (ms): ${slowest(times)}`).toBeLessThan(
        STALL_MS,
      );
    },
  );
});
