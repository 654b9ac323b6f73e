/**
 * The server under check, as the cases talk to it: every request goes through the player's own
 * HTTP client (`player/client.ts`) with the engine's faulting transport, so fault rules with
 * target `player` apply and each exchange lands in the traffic log as the player's. The client's
 * verdict on an answer is not used: a case reads the answer as it came (status, body) and judges
 * it against its own rule, so that one defect fails one case.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { EngineClock } from '../clock/clock.js';
import type { CloudQueueClient, PlayerExchange } from '../player/client.js';
import { clampRetryAfter, FOREGROUND_RETRY_LIMIT, INCOMPLETE_RETRY_WAIT_MS, parseRetryAfter } from '../player/retry.js';
import type { PlaybackReport, Reason } from '../player/wire.js';

/** The header that names the case a request belongs to, so integrators find it in their own logs. */
export const CASE_HEADER = 'x-conformance-case';

/**
 * What a run lends a case that plays the queue with a player of its own (play-through): clients on
 * the case's own clock that leave through the run's transport (fault rules, the traffic log, the
 * evidence), never the console's clock or its players.
 */
export interface PlayerHost {
  /** The run's engine time now: a case's own clock starts there. */
  now(): number;
  client(options: {
    clock: EngineClock;
    headers: Record<string, string>;
    onExchange: (exchange: PlayerExchange) => void;
  }): CloudQueueClient;
  /** Fires when the run must stop (the console closing). */
  signal?: AbortSignal;
}

/** One request and what came back. */
export interface Answer {
  exchange: PlayerExchange;
  /** The HTTP status; undefined when no complete answer came. */
  status: number | undefined;
  /** The body as it came ('' for none). */
  text: string;
  /** The body parsed as JSON; undefined when there was none or it was not JSON. */
  json: unknown;
  /** Why no complete answer came (connection failed, no answer within 10 s). */
  failure: string | undefined;
  /** The whole body's size in bytes, when `text` holds only its start (`retained.ts`). */
  bodyBytes?: number;
}

/** GET /itemWindow's query. A size is sent as `String(size)`: -1, 1.5 and NaN go out as written. */
export interface WindowAsk {
  reason: Reason;
  itemId?: string;
  previousWindowSize: number;
  upcomingWindowSize: number;
  /** The version a player holds, which it sends with every window but a load's. */
  queueVersion?: string;
}

/** Whose credentials a request carries: the run's (default), another value, or none at all. */
export type Credentials = { authorization: string | null };

export class CheckedServer {
  constructor(
    private readonly client: CloudQueueClient,
    readonly baseUrl: string,
    /** What every request carries as `Authorization` unless a case says otherwise. */
    readonly authorization: string | undefined,
    private readonly onAnswer: (answer: Answer) => void,
    /** Lends a case a player's client on a clock of its own; none in runs that cannot play. */
    private readonly host?: PlayerHost,
    /** The case whose requests these are: each carries it as `X-Conformance-Case`. */
    readonly caseId?: string,
    private readonly inFlight = new InFlight(),
    private readonly dropped = new DroppedRetries(),
  ) {}

  /** The same server, for the requests of case `id`. */
  forCase(id: string): CheckedServer {
    return new CheckedServer(
      this.client,
      this.baseUrl,
      this.authorization,
      this.onAnswer,
      this.host,
      id,
      this.inFlight,
      this.dropped,
    );
  }

  /**
   * Resolves once every request sent through this server (any case's) has been heard, or after
   * `maxMs`: requests the deadline aborted are heard a moment after the case was given up, and
   * whether they had begun to answer says whether the server answered at all.
   */
  settled(maxMs: number): Promise<void> {
    return this.inFlight.settled(maxMs);
  }

  /**
   * A client for a player of the case's own, on `clock`: its requests carry the case's header and
   * its answers count as the run's (timing, Retry-After); `onAnswer` hears each too. Null when the
   * run has no host to lend one.
   */
  playerClient(clock: EngineClock, onAnswer: (answer: Answer) => void): CloudQueueClient | null {
    if (!this.host) return null;
    return this.host.client({
      clock,
      headers: this.caseHeaders(),
      onExchange: (exchange) => onAnswer(this.answer(exchange)),
    });
  }

  /** The run's engine time and stop signal, for a case with a clock of its own. */
  get runNow(): (() => number) | null {
    return this.host ? () => this.host!.now() : null;
  }

  get signal(): AbortSignal | undefined {
    return this.host?.signal;
  }

  context(as?: Credentials): Promise<Answer> {
    return this.patiently(async () => (await this.client.context(this.target(as))).exchange);
  }

  itemWindow(ask: WindowAsk, as?: Credentials): Promise<Answer> {
    return this.patiently(async () => (await this.client.itemWindow(this.target(as), ask)).exchange);
  }

  version(as?: Credentials): Promise<Answer> {
    return this.patiently(async () => (await this.client.version(this.target(as))).exchange);
  }

  timePlayed(reports: PlaybackReport[], as?: Credentials): Promise<Answer> {
    return this.patiently(async () => (await this.client.timePlayed(this.target(as), reports)).exchange);
  }

  /**
   * A 503 is asked again as a player would (docs/contract/platform.md §7.2: up to 3 times, after
   * Retry-After clamped to 2–10 s): a server that is briefly unavailable is right. So is a request
   * whose connection the server broke (a reset, a body cut short: §7.2's incomplete request, asked
   * again 2 s later), as long as the run's three such retries last (`DroppedRetries`): a server
   * that drops a connection once or twice in a run is right, one that drops them all is judged on
   * its answers without 6 s more a request (outsider audit: one dropped connection failed `context`).
   * Each answer counts (errors.retry-after judges the 503s); a case judges the last.
   */
  private async patiently(send: () => Promise<PlayerExchange>): Promise<Answer> {
    for (let busy = 0; ;) {
      // Heard (onAnswer) before it counts as settled.
      const answer = await this.inFlight.track(send().then((exchange) => this.answer(exchange)));
      let waitMs: number;
      if (answer.exchange.failure?.dropped && this.dropped.take()) waitMs = INCOMPLETE_RETRY_WAIT_MS;
      else if (answer.status === 503 && !answer.exchange.fault && busy++ < FOREGROUND_RETRY_LIMIT)
        waitMs = retryAfterMs(answer);
      else return answer;
      try {
        await delay(waitMs, undefined, this.signal ? { signal: this.signal } : {});
      } catch {
        return answer;
      }
    }
  }

  private target(as: Credentials | undefined) {
    const authorization = as ? as.authorization : this.authorization;
    return {
      queueBaseUrl: this.baseUrl,
      ...(authorization ? { httpAuthorization: authorization } : {}),
      headers: this.caseHeaders(),
    };
  }

  private caseHeaders(): Record<string, string> {
    return this.caseId === undefined ? {} : { [CASE_HEADER]: this.caseId };
  }

  private answer(exchange: PlayerExchange): Answer {
    const text = exchange.responseBody ?? '';
    let json: unknown;
    if (exchange.status !== undefined && text.trim() !== '') {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
    }
    const answer: Answer = {
      exchange,
      status: exchange.status,
      text,
      json,
      failure: exchange.status === undefined ? (exchange.failure?.message ?? 'no answer') : undefined,
    };
    this.onAnswer(answer);
    return answer;
  }
}

/** A run's retries of requests whose connection the server broke: a player's three (§7.2), for the whole run. */
class DroppedRetries {
  private left = FOREGROUND_RETRY_LIMIT;

  take(): boolean {
    if (this.left === 0) return false;
    this.left--;
    return true;
  }
}

/** Requests sent and not yet heard, across a run's cases. */
class InFlight {
  private count = 0;
  private readonly waiting: (() => void)[] = [];

  async track<T>(work: Promise<T>): Promise<T> {
    this.count++;
    try {
      return await work;
    } finally {
      if (--this.count === 0) for (const resolve of this.waiting.splice(0)) resolve();
    }
  }

  settled(maxMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxMs);
      this.waiting.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

export const is2xx = (answer: Answer): boolean =>
  answer.status !== undefined && answer.status >= 200 && answer.status < 300;

/** The request as a reader of the report finds it: `GET /itemWindow?reason=load&…` (path relative to the base URL). */
/** How long a player waits before it asks again after this 503: its Retry-After, clamped as a player clamps it (§7.2). */
export function retryAfterMs(answer: Answer): number {
  return clampRetryAfter(parseRetryAfter(answer.exchange.responseHeaders?.['retry-after'], Date.now())) * 1_000;
}

export function requestLine(answer: Answer): string {
  const { method, url, endpoint } = answer.exchange;
  const query = URL.canParse(url) ? new URL(url).search : '';
  return `${method} /${endpoint}${decodeURIComponent(query.replace(/\+/g, '%2B'))}`;
}

const MAX_QUOTE = 160;

/** What came back, in a few words: `404 (item x is not in queue q)`, `no answer (connection failed: ECONNREFUSED)`. */
export function outcomeOf(answer: Answer): string {
  // An answer the client would not read whole (over the byte cap, nested too deep) came with a status.
  const cutAfter = answer.exchange.failure?.status;
  if (answer.status === undefined) {
    if (cutAfter !== undefined) return `${cutAfter}, but ${answer.failure}`;
    if (answer.exchange.failure?.unreadable) return `an answer it cannot read: ${answer.failure}`;
    // Its status line came, and its body did not end or broke off: an answer cut short, not silence (audit).
    return answer.exchange.responseHeaders !== undefined
      ? `an answer cut short (${answer.failure})`
      : `no answer (${answer.failure})`;
  }
  const said = serverMessage(answer);
  return said ? `${answer.status} (${said})` : String(answer.status);
}

/** The server's own message: the contract error body's, else the start of a text body. */
function serverMessage(answer: Answer): string {
  const body = answer.json as { error?: { message?: unknown } | string; message?: unknown } | undefined;
  const message = typeof body?.error === 'object' ? body.error?.message : (body?.error ?? body?.message);
  if (typeof message === 'string' && message) return quote(message);
  if (answer.json === undefined && answer.text.trim() && !(answer.status! >= 200 && answer.status! < 300))
    return quote(answer.text.trim());
  return '';
}

export function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ');
  return line.length > MAX_QUOTE ? `${line.slice(0, MAX_QUOTE)}…` : line;
}
