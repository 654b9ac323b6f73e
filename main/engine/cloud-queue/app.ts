/**
 * The reference cloud queue server listener (docs/contract/console.md §4, port P+3). Each queue answers under
 * `/queues/{queueId}/{v2.0|v2.2|v2.3}/`: GET context, itemWindow and version, POST timePlayed.
 * Before any body is read, a request must name a served version and a queue that exists (else
 * 404) and carry that queue's live access token (else 401). Every request with that token is
 * recorded per player (`X-Player-Id`) for the editor; timePlayed reports are stored, but for the
 * conformance check's (its X-Player-Id), which leave the queue's reports as they were. A request
 * without it leaves nothing behind, and what one with it leaves is bounded (docs/contract/console.md §9).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CHECK_PLAYER_ID } from '../api/conformance-types.js';
import type { ItemWindowRecord, TimePlayedRecordView } from '../api/queue-types.js';
import { CLOUD_QUEUE_MAX_CONNECTIONS } from '../http/connection-guard.js';
import { createServiceApp } from '../http/service-app.js';
import type { QueueItemRepository } from '../store/repositories/queue-items.js';
import type { QueueHead } from '../store/repositories/queues.js';
import type { TimePlayedRepository } from '../store/repositories/time-played.js';
import { recordedText, type QueueActivity } from './activity.js';
import { CLOUD_QUEUE_VERSIONS } from './defaults.js';
import { CLOUD_QUEUE_ERROR_REASONS, cloudQueueError, sendCloudQueueError } from './errors.js';
import { parseItemWindowQuery, readItemWindow } from './item-window.js';
import type { QueueModel } from './queue-model.js';
import { reasonAsWritten } from './reasons.js';
import { MAX_TIME_PLAYED_BODY_BYTES, parseTimePlayed } from './time-played.js';
import { checkQueueToken } from './tokens.js';
import { WindowCache } from './window-cache.js';

export interface CloudQueueAppOptions {
  queues: Pick<QueueModel, 'head' | 'context'>;
  items: Pick<QueueItemRepository, 'window'>;
  timePlayed: Pick<TimePlayedRepository, 'addAll'>;
  activity: QueueActivity;
  clock: { now(): number };
}

declare module 'fastify' {
  interface FastifyRequest {
    queueHead: QueueHead | null;
  }
}

const VERSIONS = new Set<string>(CLOUD_QUEUE_VERSIONS);

export async function buildCloudQueueApp(options: CloudQueueAppOptions): Promise<FastifyInstance> {
  const { queues, items, timePlayed, activity } = options;
  const now = () => Math.floor(options.clock.now());
  const app = createServiceApp({
    ignoreDuplicateSlashes: true,
    // A fleet plays against this listener (docs/fleet.md).
    maxConnections: CLOUD_QUEUE_MAX_CONNECTIONS,
    // A body that is not JSON (wrong Content-Type, broken syntax) is the player's error; one too
    // large says how large a body may be (only POST /timePlayed takes one).
    requestErrors: (reply, status, message, part) => {
      if (part === 'routed' && status === 413) {
        const limit = reply.request.routeOptions.bodyLimit ?? MAX_TIME_PLAYED_BODY_BYTES;
        return sendCloudQueueError(reply, 413, {
          message: `the body is larger than ${limit} bytes, the most this server takes in one request; send fewer reports per request`,
        });
      }
      if (part === 'missing')
        return sendCloudQueueError(reply, 404, { message: `no cloud queue at ${reply.request.url}` });
      return part === 'routed'
        ? sendCloudQueueError(reply, 400, { message: `bad request body: ${message}` })
        : sendCloudQueueError(reply, status, { message });
    },
    serverError: (reply) => sendCloudQueueError(reply, 500, { message: 'the cloud queue server failed' }),
    clientErrors: (status, message) => ({
      type: 'application/json; charset=utf-8',
      body: JSON.stringify(cloudQueueError(status, CLOUD_QUEUE_ERROR_REASONS[status] ?? 'error', message)),
    }),
  });
  const windows = new WindowCache();
  app.decorateRequest('queueHead', null);

  app.setNotFoundHandler(async (request, reply) =>
    sendCloudQueueError(reply, 404, { message: `no cloud queue at ${request.url}` }),
  );

  await app.register(
    async (api) => {
      // A callback hook, not an async one: it runs on every request and costs less this way.
      api.addHook('onRequest', (request, reply, done) => {
        const { queueId, version } = request.params as { queueId: string; version: string };
        if (!VERSIONS.has(version)) {
          sendCloudQueueError(reply, 404, {
            message: `cloud queue version ${version} is not served; use ${CLOUD_QUEUE_VERSIONS.join(', ')}`,
          });
          return;
        }
        const head = queues.head(queueId);
        if (!head) {
          sendCloudQueueError(reply, 404, { message: `no queue ${queueId}` });
          return;
        }
        const verdict = checkQueueToken(head, request.headers.authorization, now());
        if (!verdict.ok) {
          // Not recorded: anyone can send one, with any X-Player-Id (the traffic log shows it).
          sendCloudQueueError(reply, 401, { message: verdict.message });
          return;
        }
        request.queueHead = head;
        done();
      });

      api.get('/context', async (request, reply) => {
        const head = request.queueHead!;
        activity.request(head.id, playerIdOf(request), 'context', now(), 200);
        return reply.send(queues.context(head.id));
      });

      api.get('/version', async (request, reply) => {
        const head = request.queueHead!;
        activity.request(head.id, playerIdOf(request), 'version', now(), 200);
        return reply.send({ queueVersion: String(head.queueVersion), contextVersion: String(head.contextVersion) });
      });

      api.get('/itemWindow', async (request, reply) => {
        const head = request.queueHead!;
        const at = now();
        const query = request.query as Record<string, unknown>;
        // One record, its answer filled in below. Copying it with the answer added (`{ ...record,
        // status }`) went through V8's slow path for spreads here, which allocated every copy in the
        // old generation: under load, one major GC a few seconds and ~10% of this route's
        // throughput.
        const record: ItemWindowRecord = {
          at,
          requestId: headerOf(request, 'x-request-id'),
          reason: typeof query.reason === 'string' ? reasonAsWritten(query.reason) : null,
          itemId: typeof query.itemId === 'string' && query.itemId !== '' ? query.itemId : null,
          previousWindowSize: null,
          upcomingWindowSize: null,
          queueVersion: typeof query.queueVersion === 'string' ? query.queueVersion : null,
          status: 0,
        };
        const playerId = playerIdOf(request);
        const parsed = parseItemWindowQuery(query);
        if (!parsed.ok) {
          record.status = 400;
          record.error = parsed.message;
          activity.itemWindow(head.id, playerId, record);
          return sendCloudQueueError(reply, 400, { reason: 'invalidParameter', message: parsed.message });
        }
        const { asked } = parsed.value;
        record.previousWindowSize = asked.previousWindowSize;
        record.upcomingWindowSize = asked.upcomingWindowSize;
        const cacheKey = windows.key(head, parsed.value);
        let window = windows.get(cacheKey);
        if (!window) {
          window = readItemWindow(items, head, parsed.value) ?? undefined;
          if (window) windows.offer(cacheKey, window);
        }
        if (!window) {
          const message = `item ${parsed.value.itemId} is not in queue ${head.id}`;
          record.status = 404;
          record.error = message;
          activity.itemWindow(head.id, playerId, record);
          return sendCloudQueueError(reply, 404, { reason: 'itemNotFound', message });
        }
        record.status = 200;
        record.window = {
          queueVersion: String(head.queueVersion),
          anchorItemId: window.anchorItemId,
          itemIds: window.itemIds,
          includesBeginningOfQueue: window.includesBeginningOfQueue,
          includesEndOfQueue: window.includesEndOfQueue,
        };
        activity.itemWindow(head.id, playerId, record);
        return reply.type('application/json; charset=utf-8').send(window.bytes);
      });

      api.post('/timePlayed', { bodyLimit: MAX_TIME_PLAYED_BODY_BYTES }, async (request, reply) => {
        const head = request.queueHead!;
        const at = now();
        const playerId = playerIdOf(request);
        const parsed = parseTimePlayed(request.body);
        if (!parsed.ok) {
          activity.request(head.id, playerId, 'timePlayed', at, 400);
          return sendCloudQueueError(reply, 400, { reason: 'invalidField', message: parsed.message });
        }
        // The conformance check's reports (console or CLI, against one of these queues) are
        // answered as any other but not kept: a check leaves the queue's reports as they were.
        if (playerId === CHECK_PLAYER_ID) {
          activity.request(head.id, playerId, 'timePlayed', at, 204);
          return reply.code(204).send();
        }
        // Found when the headers came: a big write may have made a new row the queue since (its
        // reports moved there, the old row on its way out), or the queue may be gone.
        const current = queues.head(head.id);
        if (!current) return sendCloudQueueError(reply, 404, { message: `no queue ${head.id}` });
        const stored = timePlayed.addAll(
          current.key,
          parsed.value.map((report) => ({ itemId: report.id, playerId, receivedAt: at, type: report.type, report })),
        );
        activity.timePlayed(head.id, playerId, stored as TimePlayedRecordView[], at);
        return reply.code(204).send();
      });
    },
    { prefix: '/queues/:queueId/:version' },
  );
  return app;
}

function headerOf(request: FastifyRequest, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** As it is kept, with the activity and with each report (see `recordedText`). */
const playerIdOf = (request: FastifyRequest): string | null => recordedText(headerOf(request, 'x-player-id'));
