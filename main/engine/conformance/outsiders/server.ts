// A cloud queue server written the way an integrator would, from docs/contract/platform.md and
// docs/contract/console.md §8 alone (no project imports), so `check` can be judged from outside.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface Track {
  name: string;
  mediaUrl?: unknown;
  durationMillis?: unknown;
  [field: string]: unknown;
}
export interface QueueItem {
  id: unknown;
  track: Track;
  [field: string]: unknown;
}

/** What a handler answers: a JSON value, or raw text with its own content type. */
export interface Answer {
  status: number;
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Sent in small chunks without Content-Length. */
  chunked?: boolean;
  /** Answers `101 Switching Protocols` to websocket, never asked for, and holds the connection. */
  upgrade?: boolean;
}

export interface Request {
  method: string;
  /** The path below the base path, e.g. `itemWindow` (a trailing slash removed). */
  route: string;
  query: URLSearchParams;
  rawQuery: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Per-server counters a defect may depend on (a server that breaks after a while). */
export interface State {
  requests: number;
  finalReports: number;
  updateReports: number;
  versionPolls: number;
  windows: number;
  log: string[];
}

export interface Behaviour {
  /** Where the queue answers; the base URL handed to `check` is this under the server's origin. */
  basePath: string;
  /** The Authorization value the server accepts, verbatim (scheme included). */
  authorization: string;
  items: QueueItem[];
  queueVersion: string;
  /** Index of the item the first window (no itemId) is built around; 0 = the queue's start. */
  firstIndex: number;
  /** How many items before firstIndex a first window may show. */
  firstPrevious: boolean;
  defaultPrevious: number;
  defaultUpcoming: number;
  /** Caps the server applies whatever was asked (fewer items is allowed). */
  maxPrevious: number;
  maxUpcoming: number;
  authorize(req: Request, state: State): Answer | undefined;
  context(req: Request, state: State): Answer;
  itemWindow(req: Request, state: State): Answer;
  version(req: Request, state: State): Answer;
  timePlayed(req: Request, state: State): Answer;
  error(status: number, message: string): Answer;
  /** Last look at every answer (gzip, extra headers, …). */
  finish(req: Request, answer: Answer, state: State): Answer;
  /**
   * Answers one request a connection and drops the connection when a second comes on it, never
   * saying `Connection: close`: a proxy that closes kept connections as a request goes out.
   */
  oneRequestPerConnection?: boolean;
}

export const REASONS = [
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
];

/** What a v2.0 report item may carry (platform.md §2.3): a strict v2.0 server refuses the rest. */
export const V2_0_REPORT_ATTRIBUTES: ReadonlySet<string> = new Set([
  'id',
  'mediaUrl',
  'queueVersion',
  'durationPlayedMillis',
  'timeSincePlaybackMillis',
  'positionMillis',
  'positionMillisAtSegmentStart',
  'type',
  'skip',
]);

export function tracks(count: number, durationMillis = 2_000, prefix = 'item-'): QueueItem[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}${i + 1}`,
    track: {
      name: `Track ${i + 1}`,
      mediaUrl: `https://media.example.com/tracks/${i + 1}.mp3`,
      contentType: 'audio/mpeg',
      durationMillis,
      artist: { name: 'Outsider Band' },
      album: { name: 'Short Tracks' },
    },
  }));
}

/** The error body console.md §4 describes; any body is allowed by the platform. */
export function jsonError(status: number, message: string): Answer {
  return {
    status,
    json: { error: { code: status, message, errors: [{ domain: 'cloudQueue', reason: 'error', message }] } },
  };
}

const WHOLE = /^\d+$/;

/** A window size per platform.md §4.3: an integer, zero or greater; undefined when absent. */
export function parseSize(raw: string | null): number | 'bad' | undefined {
  if (raw === null || raw === '') return undefined;
  if (!WHOLE.test(raw)) return 'bad';
  return Number(raw);
}

/** A `+` in a query decodes to a space, so `load+queueCompleted` may arrive either way. */
export function reasonOf(req: Request): string[] {
  const raw = req.query.get('reason');
  if (raw === null) return [];
  return raw.split(/[+ ]/).filter((part) => part !== '');
}

export function indexOfId(items: QueueItem[], id: string): number {
  return items.findIndex((item) => String(item.id) === id);
}

export interface Slice {
  from: number;
  to: number; // exclusive
}

export function windowBody(b: Behaviour, slice: Slice): Record<string, unknown> {
  const items = b.items.slice(slice.from, slice.to);
  return {
    includesBeginningOfQueue: b.items.length === 0 || slice.from === 0,
    includesEndOfQueue: b.items.length === 0 || slice.to >= b.items.length,
    contextVersion: 'ctx-1',
    queueVersion: b.queueVersion,
    items,
  };
}

/** The correct /itemWindow: sizes checked, the window centred on itemId, never larger than asked. */
export function correctWindow(b: Behaviour, req: Request): Answer | Slice {
  const reasons = reasonOf(req);
  if (reasons.length === 0 || reasons.some((r) => !REASONS.includes(r))) {
    return b.error(400, `unknown reason ${JSON.stringify(req.query.get('reason'))}`);
  }
  const previous = parseSize(req.query.get('previousWindowSize'));
  const upcoming = parseSize(req.query.get('upcomingWindowSize'));
  if (previous === 'bad' || upcoming === 'bad') {
    return b.error(400, 'previousWindowSize and upcomingWindowSize must be integers, zero or greater');
  }
  const itemId = req.query.get('itemId');
  let index: number;
  let before = Math.min(previous ?? b.defaultPrevious, b.maxPrevious);
  if (itemId === null || itemId === '') {
    index = Math.min(b.firstIndex, Math.max(b.items.length - 1, 0));
    if (!b.firstPrevious) before = 0;
  } else {
    index = indexOfId(b.items, itemId);
    if (index < 0) return b.error(404, `no item ${itemId} in this queue`);
  }
  if (b.items.length === 0) return { from: 0, to: 0 };
  const after = Math.min(upcoming ?? b.defaultUpcoming, b.maxUpcoming);
  return { from: Math.max(0, index - before), to: Math.min(b.items.length, index + 1 + after) };
}

const NUMBER_FIELDS = [
  'durationPlayedMillis',
  'timeSincePlaybackMillis',
  'positionMillis',
  'positionMillisAtSegmentStart',
];

/** platform.md §2.3: `items`, each with its typed attributes; `skip` only on a `final`. */
export function reportProblem(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'the body is not JSON';
  }
  if (typeof parsed !== 'object' || parsed === null || !Array.isArray((parsed as { items?: unknown }).items)) {
    return 'items must be an array';
  }
  for (const [i, item] of (parsed as { items: unknown[] }).items.entries()) {
    if (typeof item !== 'object' || item === null) return `items[${i}] must be an object`;
    const fields = item as Record<string, unknown>;
    for (const name of ['id', 'mediaUrl', 'queueVersion', 'type']) {
      if (typeof fields[name] !== 'string') return `items[${i}].${name} must be a string`;
    }
    for (const name of NUMBER_FIELDS) {
      if (typeof fields[name] !== 'number') return `items[${i}].${name} must be a number`;
    }
    if (fields.type !== 'final' && fields.type !== 'update') return `items[${i}].type must be final or update`;
    if (fields.skip !== undefined) {
      if (typeof fields.skip !== 'object' || fields.skip === null) return `items[${i}].skip must be an object`;
      if (fields.type !== 'final') return `items[${i}].skip is only for a final report`;
    }
  }
  return undefined;
}

export function correctBehaviour(token: string): Behaviour {
  const b: Behaviour = {
    basePath: '/queues/q1/v2.3/',
    authorization: `Bearer ${token}`,
    items: tracks(8),
    queueVersion: 'qv-1',
    firstIndex: 0,
    firstPrevious: false,
    defaultPrevious: 5,
    defaultUpcoming: 10,
    maxPrevious: 100,
    maxUpcoming: 1_000,
    authorize(req) {
      if (req.headers.authorization === b.authorization) return undefined;
      const answer = b.error(401, 'Incorrect token');
      return { ...answer, headers: { ...answer.headers, 'www-authenticate': 'Bearer error="invalid_token"' } };
    },
    context() {
      return {
        status: 200,
        json: {
          contextVersion: 'ctx-1',
          queueVersion: b.queueVersion,
          container: { name: 'Outsider Album', type: 'album', id: 'album-1' },
          reports: { sendUpdateAfterMillis: 1_000, periodicIntervalMillis: 10_000, sendPlaybackActions: true },
          playbackPolicies: {
            canSkip: true,
            limitedSkips: false,
            canSkipBack: true,
            canSeek: true,
            canSkipToItem: true,
            notifyUserIntent: false,
            pauseTtlSec: 600,
          },
        },
      };
    },
    itemWindow(req) {
      const slice = correctWindow(b, req);
      return 'status' in slice ? slice : { status: 200, json: windowBody(b, slice) };
    },
    version() {
      return { status: 200, json: { queueVersion: b.queueVersion, contextVersion: 'ctx-1' } };
    },
    timePlayed(req, state) {
      const problem = reportProblem(req.body);
      if (problem !== undefined) return b.error(400, problem);
      for (const item of (JSON.parse(req.body) as { items: { type: string }[] }).items) {
        if (item.type === 'final') state.finalReports += 1;
        else state.updateReports += 1;
      }
      return { status: 204 };
    },
    error: jsonError,
    finish: (_req, answer) => answer,
  };
  return b;
}

const ROUTES = { context: 'GET', itemWindow: 'GET', version: 'GET', timePlayed: 'POST' } as const;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 256 * 1024) break; // a cloud queue server reads what its routes can use
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function answerFor(b: Behaviour, req: Request, state: State): Promise<Answer> {
  const method = ROUTES[req.route as keyof typeof ROUTES] as string | undefined;
  if (method === undefined) return b.error(404, `no such path ${req.route}`);
  if (req.method !== method) return b.error(405, `${req.method} is not allowed here`);
  const refused = b.authorize(req, state);
  if (refused !== undefined) return refused;
  switch (req.route) {
    case 'context':
      return b.context(req, state);
    case 'itemWindow':
      state.windows += 1;
      return b.itemWindow(req, state);
    case 'version':
      state.versionPolls += 1;
      return b.version(req, state);
    default:
      return b.timePlayed(req, state);
  }
}

function send(res: ServerResponse, answer: Answer): void {
  if (answer.upgrade) {
    res.socket?.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    return;
  }
  const headers: Record<string, string> = { ...answer.headers };
  let payload: Buffer | undefined;
  if (answer.json !== undefined) {
    payload = Buffer.from(JSON.stringify(answer.json));
    headers['content-type'] ??= 'application/json; charset=utf-8';
  } else if (answer.text !== undefined) {
    payload = Buffer.from(answer.text);
    headers['content-type'] ??= 'text/plain; charset=utf-8';
  }
  if (payload !== undefined && headers['content-encoding'] === 'gzip') payload = gzipSync(payload);
  if (payload !== undefined && answer.chunked === true) {
    res.writeHead(answer.status, headers);
    for (let at = 0; at < payload.length; at += 64) res.write(payload.subarray(at, at + 64));
    res.end();
    return;
  }
  if (payload !== undefined) headers['content-length'] = String(payload.length);
  res.writeHead(answer.status, headers);
  res.end(payload);
}

export interface RunningServer {
  baseUrl: string;
  state: State;
  close(): Promise<void>;
}

/** Starts a behaviour on 127.0.0.1 and a free port. */
export async function startServer(b: Behaviour): Promise<RunningServer> {
  const state: State = { requests: 0, finalReports: 0, updateReports: 0, versionPolls: 0, windows: 0, log: [] };
  const timers = new Set<NodeJS.Timeout>();
  const served = new WeakMap<object, number>();
  const server: Server = createServer((req, res) => {
    const count = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, count);
    if (b.oneRequestPerConnection && count > 1) return void req.socket.destroy();
    void (async () => {
      state.requests += 1;
      const url = new URL(req.url ?? '/', 'http://outsider.invalid');
      const body = req.method === 'POST' ? await readBody(req) : '';
      const path = url.pathname.replace(/\/{2,}/g, '/');
      let answer: Answer;
      if (!path.startsWith(b.basePath.replace(/\/{2,}/g, '/'))) {
        answer = b.error(404, 'not a queue');
      } else {
        const route = path.slice(b.basePath.length).replace(/\/$/, '');
        const request: Request = {
          method: req.method ?? 'GET',
          route,
          query: url.searchParams,
          rawQuery: url.search,
          headers: req.headers,
          body,
        };
        answer = b.finish(request, await answerFor(b, request, state), state);
      }
      if (state.log.length < 2_000) {
        state.log.push(`${req.method} ${req.url} [${String(req.headers['x-conformance-case'])}] → ${answer.status}`);
      }
      if (answer.delayMs !== undefined && answer.delayMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send(res, answer);
        }, answer.delayMs);
        timers.add(timer);
      } else {
        send(res, answer);
      }
    })().catch(() => {
      res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${b.basePath}`,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
