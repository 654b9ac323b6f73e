/**
 * What the traffic benchmarks run against: an engine (in memory, or with `disk` in a fresh data
 * dir that `dispose` removes) and GET /itemWindow of a 1,000-item queue, 100 different windows, as
 * a handful of players playing through it would ask for them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { QueueSummary } from '../main/engine/api/queue-types.js';
import { sampleTracks } from '../main/engine/cloud-queue/samples.js';
import { createEngine, type Engine } from '../main/engine/index.js';
import { itemIdOf } from '../main/engine/store/repositories/queue-items.js';

/** A window's query as the benches ask for it: by default five items before the anchor, ten after. */
export function windowQuery(itemId: string, previous = 5, upcoming = 10): string {
  return `?reason=refresh&itemId=${itemId}&previousWindowSize=${previous}&upcomingWindowSize=${upcoming}`;
}

/** The cold load's queue: item-window.bench.ts makes one this long. */
export const COLD_QUEUE_ITEMS = 100_000;

/**
 * The cold load (item-window.bench.ts and the tools beside it): 10,000 windows of a
 * COLD_QUEUE_ITEMS-item queue in turn, more than the window cache keeps, so that each is read from
 * the store. Query strings, for the console's `…/itemWindow` or a bare route's.
 */
export function coldWindowQueries(): string[] {
  return Array.from({ length: 10_000 }, (_, i) => windowQuery(itemIdOf(1 + ((i * 7919) % COLD_QUEUE_ITEMS))));
}

export interface ItemWindowBench {
  engine: Engine;
  dataDir: string | null;
  origin: string;
  headers: Record<string, string>;
  paths: string[];
  dispose(): Promise<void>;
}

export async function itemWindowBench(disk: boolean): Promise<ItemWindowBench> {
  const dataDir = disk ? mkdtempSync(join(tmpdir(), 'cqc-traffic-bench-')) : null;
  const engine = await createEngine({ dataDir, port: 0, clockSpeed: 0 });
  const queue = (await engine.commands.run('queues.create', {
    name: 'Bench',
    items: sampleTracks(1, 1_000).map((track) => ({ track })),
  })) as QueueSummary;
  const base = new URL(queue.queueBaseUrl);
  return {
    engine,
    dataDir,
    origin: base.origin,
    headers: { authorization: queue.httpAuthorization, 'x-player-id': 'bench' },
    paths: Array.from({ length: 100 }, (_, i) => `${base.pathname}itemWindow${windowQuery(itemIdOf(1 + i * 10))}`),
    async dispose() {
      await engine.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One window of a 1,000-item queue on `engine`, asked for once so that the next ask is cached. */
export interface CachedWindow {
  origin: string;
  path: string;
  headers: Record<string, string>;
  /** The window's answer, as sent. */
  text: string;
}

export async function cachedWindow(engine: Engine, name: string): Promise<CachedWindow> {
  const queue = (await engine.commands.run('queues.create', {
    name,
    items: sampleTracks(1, 1_000).map((track) => ({ track })),
  })) as QueueSummary;
  const base = new URL(queue.queueBaseUrl);
  const path = `${base.pathname}itemWindow${windowQuery('item-500')}`;
  const headers = { authorization: `Bearer ${queue.accessToken}`, 'x-player-id': 'bench' };
  const text = await (await fetch(base.origin + path, { headers })).text();
  return { origin: base.origin, path, headers, text };
}
