/**
 * A cloud queue server written from the docs alone (docs/contract/platform.md §4.3, §7;
 * docs/contract/console.md §4), as an integrator would write one: plain node:http on 127.0.0.1,
 * one queue per player under `/queues/fleet-{player}/v2.3/` (or one shared queue, any other path).
 * It is correct by default; a `defect` breaks it in exactly one way, so a fleet run against it
 * must name that one rule.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Defect =
  | 'none'
  /** Every window holds one item more on the upcoming side than was asked for. */
  | 'window-one-too-long'
  /** A window asked for by `itemId` comes back under other ids: the item asked for is not in it. */
  | 'wrong-item-ids'
  /** Every window names its first item twice. */
  | 'duplicate-item-ids'
  /** `queueVersion` a number in /itemWindow (the contract's report item says string). */
  | 'version-not-a-string'
  /** /version answers an object without `queueVersion`. */
  | 'version-missing'
  /** 404 for every /itemWindow that names an item the queue holds. */
  | 'not-found-for-known-item'
  /** Items without `track.mediaUrl`. */
  | 'missing-media-url'
  /** Windows without `includesEndOfQueue`. */
  | 'missing-includes-end';

export interface QueueServerOptions {
  /** Tracks in each queue. */
  readonly tracks?: number;
  /** Length of each track, ms of engine time. */
  readonly trackMillis?: number;
  /** The Authorization header every request must carry verbatim; anything else is 401. */
  readonly authorization?: string;
  readonly defect?: Defect;
}

/** What the server saw, to check the fleet really played (not just that it said so). */
export interface Seen {
  requests: number;
  byEndpoint: Record<string, number>;
  reasons: Record<string, number>;
  players: Set<string>;
  unauthorized: number;
  badReports: string[];
  finalReports: number;
}

export interface RunningServer {
  readonly url: string;
  readonly seen: Seen;
  close(): Promise<void>;
}

const REASONS = new Set([
  'load',
  'pause',
  'play',
  'queueCompleted',
  'refresh',
  'resume',
  'skipNext',
  'skipPrev',
  'skipToItem',
  'load+queueCompleted',
]);

const QUEUE_VERSION = '1';
const CONTEXT_VERSION = '1';

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}

function error(res: ServerResponse, status: number, message: string): void {
  send(res, status, { error: { code: status, message, errors: [{ domain: 'outsider', reason: 'invalid', message }] } });
}

/** A whole number ≥ 0, or undefined when absent; NaN when present and not one. */
function size(value: string | null): number | undefined {
  if (value === null) return undefined;
  return /^\d+$/.test(value) ? Number(value) : Number.NaN;
}

function track(queueId: string, index: number, trackMillis: number) {
  return {
    name: `Outsider ${queueId} ${index + 1}`,
    mediaUrl: `https://media.example.com/outsider/${queueId}/${index + 1}.mp3`,
    contentType: 'audio/mpeg',
    durationMillis: trackMillis,
    imageUrl: `https://media.example.com/outsider/${index + 1}.jpg`,
    artist: { name: 'The Outsiders' },
    album: { name: 'From the Docs' },
  };
}

/** Reads a request body up to a cap; the fleet's reports are small. */
async function readBody(req: IncomingMessage, cap: number): Promise<string | undefined> {
  let total = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > cap) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Checks one report item against platform.md §2.3; returns what is wrong, or undefined. */
function reportProblem(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return 'item not an object';
  const r = item as Record<string, unknown>;
  for (const field of ['id', 'mediaUrl', 'queueVersion', 'type']) {
    if (typeof r[field] !== 'string') return `${field} not a string`;
  }
  for (const field of [
    'durationPlayedMillis',
    'timeSincePlaybackMillis',
    'positionMillis',
    'positionMillisAtSegmentStart',
  ]) {
    if (typeof r[field] !== 'number') return `${field} not a number`;
  }
  if (r.type !== 'final' && r.type !== 'update') return `type ${String(r.type)}`;
  return undefined;
}

export async function startQueueServer(options: QueueServerOptions = {}): Promise<RunningServer> {
  const tracks = options.tracks ?? 20;
  const trackMillis = options.trackMillis ?? 30_000;
  const defect = options.defect ?? 'none';
  const seen: Seen = {
    requests: 0,
    byEndpoint: {},
    reasons: {},
    players: new Set(),
    unauthorized: 0,
    badReports: [],
    finalReports: 0,
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    seen.requests += 1;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const parts = url.pathname.split('/').filter(Boolean);
    const endpoint = parts.at(-1) ?? '';
    // `/queues/{id}/v2.3/{endpoint}`; any other prefix is the one shared queue.
    const queueId = (parts[0] === 'queues' && parts.length === 4 ? parts[1] : undefined) ?? 'shared';
    seen.byEndpoint[endpoint] = (seen.byEndpoint[endpoint] ?? 0) + 1;
    const player = req.headers['x-player-id'];
    if (typeof player === 'string') seen.players.add(player);

    if (options.authorization !== undefined && req.headers.authorization !== options.authorization) {
      seen.unauthorized += 1;
      error(res, 401, 'Incorrect token');
      return;
    }

    if (req.method === 'GET' && endpoint === 'context') {
      send(res, 200, {
        contextVersion: CONTEXT_VERSION,
        queueVersion: QUEUE_VERSION,
        container: {
          name: `Outsider ${queueId}`,
          type: 'playlist',
          id: { objectId: queueId },
          imageUrl: 'https://media.example.com/outsider/q.jpg',
        },
        reports: { sendUpdateAfterMillis: 10_000, periodicIntervalMillis: 10_000, sendPlaybackActions: true },
        playbackPolicies: {
          canSkip: true,
          limitedSkips: false,
          canSkipBack: true,
          canSeek: true,
          canSkipToItem: true,
          notifyUserIntent: false,
          pauseTtlSec: 3600,
        },
      });
      return;
    }

    if (req.method === 'GET' && endpoint === 'version') {
      if (defect === 'version-missing') send(res, 200, { contextVersion: CONTEXT_VERSION });
      else send(res, 200, { queueVersion: QUEUE_VERSION, contextVersion: CONTEXT_VERSION });
      return;
    }

    if (req.method === 'GET' && endpoint === 'itemWindow') {
      const reason = url.searchParams.get('reason') ?? '';
      seen.reasons[reason] = (seen.reasons[reason] ?? 0) + 1;
      if (!REASONS.has(reason)) return error(res, 400, `reason ${reason} is not a platform value`);
      const previous = size(url.searchParams.get('previousWindowSize')) ?? 5;
      const upcoming = size(url.searchParams.get('upcomingWindowSize')) ?? 10;
      if (Number.isNaN(previous) || Number.isNaN(upcoming))
        return error(res, 400, 'window sizes are whole numbers ≥ 0');
      const itemId = url.searchParams.get('itemId');
      let centre = 0;
      let from = 0;
      if (itemId !== null) {
        const match = /^item-(\d+)$/.exec(itemId);
        centre = match ? Number(match[1]) - 1 : -1;
        if (centre < 0 || centre >= tracks) return error(res, 404, `no item ${itemId} in this queue`);
        if (defect === 'not-found-for-known-item') return error(res, 404, `no item ${itemId} in this queue`);
        from = Math.max(0, centre - previous);
      }
      const extra = defect === 'window-one-too-long' ? 1 : 0;
      const to = Math.min(tracks - 1, centre + upcoming + extra);
      const items = [];
      for (let i = from; i <= to; i += 1) {
        const t = track(queueId, i, trackMillis);
        if (defect === 'missing-media-url') delete (t as { mediaUrl?: string }).mediaUrl;
        const renamed = defect === 'wrong-item-ids' && itemId !== null;
        items.push({ id: `item-${renamed ? i + 1 + tracks : i + 1}`, track: t });
      }
      // The last item under the first one's id: the window keeps its size, so only the ids are wrong.
      if (defect === 'duplicate-item-ids' && items.length > 1) items[items.length - 1] = { ...items[0]! };
      const window: Record<string, unknown> = {
        includesBeginningOfQueue: from === 0,
        includesEndOfQueue: to === tracks - 1,
        contextVersion: CONTEXT_VERSION,
        queueVersion: defect === 'version-not-a-string' ? 1 : QUEUE_VERSION,
        items,
      };
      if (defect === 'missing-includes-end') delete window.includesEndOfQueue;
      send(res, 200, window);
      return;
    }

    if (req.method === 'POST' && endpoint === 'timePlayed') {
      const text = await readBody(req, 128 * 1024);
      if (text === undefined) return error(res, 413, 'report over 128 KiB');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        seen.badReports.push('not JSON');
        return error(res, 400, 'body is not JSON');
      }
      const items = (body as { items?: unknown }).items;
      if (!Array.isArray(items)) {
        seen.badReports.push('items not an array');
        return error(res, 400, 'items is not an array');
      }
      for (const item of items) {
        const problem = reportProblem(item);
        if (problem !== undefined) {
          seen.badReports.push(problem);
          return error(res, 400, problem);
        }
        if ((item as { type: string }).type === 'final') seen.finalReports += 1;
      }
      send(res, 204);
      return;
    }

    error(res, 404, `no ${req.method} ${url.pathname}`);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
