/**
 * A scriptable cloud queue server for player tests: it serves a plain array queue the way
 * docs/contract/console.md §4 says, records every request, and answers the next matching requests with whatever
 * a test scripts (503 with Retry-After, 404, 403, a malformed body, a dropped connection, no
 * answer at all). Deliberately simple: it is the yardstick the player is measured against.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { PlaybackPolicies, QueueItem, ReportSettings } from '../player/wire.js';

export interface RecordedRequest {
  method: string;
  endpoint: string;
  reason?: string;
  itemId?: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  body?: unknown;
}

export type ScriptedAnswer =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | { drop: true }
  | { hang: true }
  /** Answered once `release` is called: with `body` (a 200), or as usual, as the queue is then. */
  | { hold: true; body?: unknown };

interface Script {
  endpoint: string;
  reason?: string;
  times: number;
  answer: ScriptedAnswer;
}

export interface StubOptions {
  items?: QueueItem[];
  policies?: Partial<PlaybackPolicies>;
  reports?: ReportSettings;
  /** The version its base URL names (report items follow it): v2.0, the platform contract's, unless said. */
  version?: string;
}

export class StubCloudQueue {
  items: QueueItem[];
  policies: Partial<PlaybackPolicies>;
  reports: ReportSettings;
  version = 1;
  contextVersion = 1;
  /** The cloud queue version in the base URL (`v2.0`, `v2.3`…). */
  readonly apiVersion: string;
  readonly requests: RecordedRequest[] = [];
  private scripts: Script[] = [];
  private readonly hanging = new Set<FastifyReply>();
  private held: (() => void)[] = [];
  private app: FastifyInstance | null = null;
  baseUrl = '';

  constructor(options: StubOptions = {}) {
    this.items = options.items ?? tracks(20);
    this.policies = options.policies ?? {};
    this.reports = options.reports ?? {};
    this.apiVersion = options.version ?? 'v2.0';
  }

  async start(): Promise<this> {
    const app = Fastify({ logger: false, forceCloseConnections: true });
    const base = `/q/${this.apiVersion}`;
    app.get(`${base}/context`, (req, reply) =>
      this.handle('context', req, reply, () => ({
        contextVersion: String(this.contextVersion),
        queueVersion: String(this.version),
        container: { name: 'Stub', type: 'playlist', id: { objectId: 'stub' } },
        reports: this.reports,
        playbackPolicies: this.policies,
      })),
    );
    app.get(`${base}/itemWindow`, (req, reply) =>
      this.handle('itemWindow', req, reply, () => this.window(req.query as Record<string, string>, reply)),
    );
    app.get(`${base}/version`, (req, reply) =>
      this.handle('version', req, reply, () => ({
        queueVersion: String(this.version),
        contextVersion: String(this.contextVersion),
      })),
    );
    app.post(`${base}/timePlayed`, (req, reply) => this.handle('timePlayed', req, reply, () => reply.code(204).send()));
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    this.baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}${base}/`;
    this.app = app;
    return this;
  }

  /** Answers the requests scripted to `hold`, in the order they came. */
  release(): void {
    for (const answer of this.held.splice(0)) answer();
  }

  async close(): Promise<void> {
    this.release();
    for (const reply of this.hanging) reply.raw.destroy();
    await this.app?.close();
  }

  /** The next `times` requests to `endpoint` (with `reason`, if given) get `answer`. */
  script(
    endpoint: string,
    answer: ScriptedAnswer,
    { times = 1, reason }: { times?: number; reason?: string } = {},
  ): void {
    this.scripts.push({ endpoint, reason, times, answer });
  }

  /** Requests to one endpoint, optionally with one reason. */
  sent(endpoint: string, reason?: string): RecordedRequest[] {
    return this.requests.filter((r) => r.endpoint === endpoint && (reason === undefined || r.reason === reason));
  }

  reasons(): string[] {
    return this.sent('itemWindow').map((r) => r.reason ?? '');
  }

  /** Every report item posted so far. */
  postedReports(): Record<string, unknown>[] {
    return this.sent('timePlayed').flatMap((r) => (r.body as { items: Record<string, unknown>[] }).items);
  }

  /** Changes the queue: a new version, as every edit does. */
  edit(change: (items: QueueItem[]) => QueueItem[]): void {
    this.items = change(this.items);
    this.version++;
  }

  private handle(endpoint: string, req: FastifyRequest, reply: FastifyReply, answer: () => unknown) {
    const query = req.query as Record<string, string>;
    this.requests.push({
      method: req.method,
      endpoint,
      reason: query.reason,
      itemId: query.itemId,
      query,
      headers: req.headers as Record<string, string>,
      body: req.body,
    });
    const script = this.scripts.find(
      (s) => s.endpoint === endpoint && (s.reason === undefined || s.reason === query.reason),
    );
    if (script) {
      if (--script.times === 0) this.scripts = this.scripts.filter((s) => s !== script);
      const scripted = script.answer;
      if ('drop' in scripted) return reply.raw.destroy();
      if ('hang' in scripted) {
        this.hanging.add(reply);
        return reply.hijack();
      }
      if ('hold' in scripted) return new Promise((resolve) => this.held.push(() => resolve(scripted.body ?? answer())));
      return reply
        .code(scripted.status)
        .headers(scripted.headers ?? {})
        .send(scripted.body ?? errorBody(scripted.status));
    }
    return answer();
  }

  private window(query: Record<string, string>, reply: FastifyReply) {
    const previous = Number(query.previousWindowSize ?? 5);
    const upcoming = Number(query.upcomingWindowSize ?? 10);
    let at = 0;
    if (query.itemId !== undefined) {
      at = this.items.findIndex((item) => item.id === query.itemId);
      if (at === -1) return reply.code(404).send(errorBody(404));
    }
    const start = Math.max(0, at - previous);
    const end = Math.min(this.items.length, at + upcoming + 1);
    return {
      includesBeginningOfQueue: start === 0,
      includesEndOfQueue: end === this.items.length,
      contextVersion: String(this.contextVersion),
      queueVersion: String(this.version),
      items: this.items.slice(start, end),
    };
  }
}

export function tracks(count: number, durationMillis = 180_000, prefix = 't'): QueueItem[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}${i + 1}`,
    track: {
      name: `Track ${i + 1}`,
      mediaUrl: `https://media.example/${prefix}${i + 1}.mp3`,
      contentType: 'audio/mpeg',
      durationMillis,
    },
  }));
}

function errorBody(status: number) {
  return {
    error: {
      code: status,
      message: `scripted ${status}`,
      errors: [{ domain: 'stub', reason: 'scripted', message: `scripted ${status}` }],
    },
  };
}
