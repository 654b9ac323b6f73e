/**
 * The floor of a window read from a store, for item-window.bench.ts to measure beside the
 * console's: a bare fastify route on the console's table (`queue_items`, made by the console's own
 * migrations in a store in memory, as the bench's engine keeps it), doing only what any server that keeps its
 * queue in SQLite must do for a window it has not cached: find the anchor by its id, read the rows
 * before and after it in order, and write the body from the items' stored JSON. Nothing the
 * console adds: no token check, no query checks beyond the numbers, no activity record, no service
 * app, no cache.
 */
import Fastify from 'fastify';
import { openStore } from '../main/engine/store/store.js';
import { emptyQueueRow } from '../main/engine/testing/queue-rows.js';

export interface WindowFloor {
  /** The route's URL without a query (`?itemId=item-N&previousWindowSize=…&upcomingWindowSize=…`). */
  url: string;
  close(): Promise<void>;
}

/**
 * `items` are the stored JSON of the queue's items in order, item n (`item-<n>`) at n - 1, as the
 * console stores them (`itemJson`); `versions` the queue's. Built from the same tracks, the floor
 * answers a window in the console's bytes.
 */
export async function startWindowFloor(
  items: readonly string[],
  versions: { contextVersion: string; queueVersion: string },
): Promise<WindowFloor> {
  // The console's schema, made by its migrations; nothing of the console runs on a request.
  const store = openStore({ dataDir: null });
  const db = store.db;
  const QUEUE = store.queues.create(emptyQueueRow('floor')).key;
  const insert = db.prepare('INSERT INTO queue_items (queue_key, pos, item_seq, item) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    items.forEach((item, i) => insert.run(QUEUE, (i + 1) * 1024, i + 1, item));
  })();
  const anchor = db
    .prepare<[number, number], number>('SELECT pos FROM queue_items WHERE queue_key = ? AND item_seq = ?')
    .pluck();
  const before = (limit: number) =>
    db
      .prepare<[number, number], string>(
        `SELECT item FROM queue_items WHERE queue_key = ? AND pos < ? ORDER BY pos DESC LIMIT ${limit}`,
      )
      .pluck();
  const from = (limit: number) =>
    db
      .prepare<[number, number], string>(
        `SELECT item FROM queue_items WHERE queue_key = ? AND pos >= ? ORDER BY pos LIMIT ${limit}`,
      )
      .pluck();
  const statements = new Map<string, { before: ReturnType<typeof before>; from: ReturnType<typeof from> }>();

  const app = Fastify({ logger: false });
  app.get('/itemWindow', (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const previous = Number(query.previousWindowSize);
    const upcoming = Number(query.upcomingWindowSize);
    const pos = anchor.get(QUEUE, Number((query.itemId ?? '').slice('item-'.length)));
    if (pos === undefined) return reply.code(404).send({ message: 'no such item' });
    const key = `${previous}/${upcoming}`;
    let read = statements.get(key);
    if (!read) statements.set(key, (read = { before: before(previous + 1), from: from(upcoming + 2) }));
    const earlier = read.before.all(QUEUE, pos);
    const later = read.from.all(QUEUE, pos);
    const beginning = earlier.length <= previous;
    const end = later.length <= upcoming + 1;
    const rows = earlier
      .slice(0, previous)
      .reverse()
      .concat(later.slice(0, upcoming + 1));
    return reply
      .type('application/json; charset=utf-8')
      .send(
        `{"includesBeginningOfQueue":${beginning},"includesEndOfQueue":${end},"contextVersion":"${versions.contextVersion}","queueVersion":"${versions.queueVersion}","items":[${rows.join(',')}]}`,
      );
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/itemWindow`,
    async close() {
      await app.close();
      store.close();
    },
  };
}
