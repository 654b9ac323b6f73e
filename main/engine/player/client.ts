/**
 * The player's HTTP client for any cloud queue server (docs/contract/console.md §5): it sends the
 * `httpAuthorization` of the last loadCloudQueue verbatim as `Authorization`, plus `X-Player-Id`
 * and a fresh `X-Request-Id`; a request without a complete response after 10 s of engine time
 * is an incomplete request; every response is checked against the contract. It never retries:
 * what to do with a failure is the player's decision (retry.ts).
 */
import { randomUUID } from 'node:crypto';
import type { FaultHit } from '../api/fault-types.js';
import type { EngineClock, Timer } from '../clock/clock.js';
import type { BodyBudget } from '../http/body-budget.js';
import { CUT_TEXT_BYTES, depthRefusal, parseJsonWithin, readCappedBody, type ByteStream } from '../http/capped-body.js';
import {
  checkContext,
  checkItemWindow,
  checkTimePlayedAnswer,
  checkVersion,
  type CloudQueueEndpoint,
  type TimePlayedAnswer,
  type Violation,
  type WindowRequest,
} from './contract-check.js';
import { parseRetryAfter, REQUEST_TIMEOUT_MS, type Failure } from './retry.js';
import { UnfinishedHead } from './unfinished-head.js';
import { UnaskedUpgrade } from './unasked-upgrade.js';
import { UnfollowableRedirect } from './unfollowable-redirect.js';
import type { ContextResponse, ItemWindowResponse, PlaybackReport, Reason, VersionResponse } from './wire.js';

/** Where the player's cloud queue lives, as the last loadCloudQueue said. */
export interface CloudQueueTarget {
  queueBaseUrl: string;
  httpAuthorization?: string;
  /** More headers for this request (the conformance suite's `X-Conformance-Case`); never replace the player's own. */
  headers?: Record<string, string>;
}

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** `forEach` (fetch's Headers have it, as do node:http's here): every header, for who keeps them all. */
  headers: { get(name: string): string | null; forEach?(each: (value: string, name: string) => void): void };
  text(): Promise<string>;
  /** The body as a stream (fetch's, or node:http's), read under the client's byte cap; without it `text()` is read and measured. */
  body?: ByteStream | null;
  /** Set when the failure-injection layer made or touched this answer. */
  fault?: FaultHit;
  /**
   * Why the first try failed when the request was sent again on a new connection (the kept one
   * the server had closed as it went out: `ECONNRESET`); the server saw it twice.
   */
  resentAfter?: string;
  /** The URL that answered, when redirects were followed to it. */
  redirectedTo?: string;
}

/** How a request leaves the player; the failure-injection layer wraps this. */
export type HttpTransport = (request: HttpRequest) => Promise<HttpResponse>;

export const fetchTransport: HttpTransport = (request) =>
  fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: request.signal,
    redirect: 'follow',
  });

/** One request and its outcome, as the traffic log and the player panel show it. */
export interface PlayerExchange {
  requestId: string;
  playerId: string;
  endpoint: CloudQueueEndpoint;
  method: 'GET' | 'POST';
  url: string;
  reason?: Reason;
  /** 0 for the first try, n for the n-th retry. */
  retry: number;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  startedAt: number;
  /** Wall time it started. */
  wallAt: number;
  /** Engine ms until the outcome. */
  durationMs: number;
  /** Wall ms until the outcome. */
  latencyMs: number;
  /** The injected fault that failed or delayed it. */
  fault?: FaultHit;
  /** The first try's failure, when the transport sent it again on a new connection (see HttpResponse). */
  resentAfter?: string;
  /** The URL that answered, when the request was redirected to it (see HttpResponse). */
  redirectedTo?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  failure?: Failure;
  violations: Violation[];
  /**
   * The traffic log entry that records this exchange, set in `onExchange` by whoever records it
   * (see PlayerRegistry); null when nothing does (capture off, a test). Its violations point there.
   */
  trafficId: number | null;
}

export type ClientResult<T> =
  { ok: true; value: T; exchange: PlayerExchange } | { ok: false; failure: Failure; exchange: PlayerExchange };

/**
 * The most the player reads of one answer (docs/contract/console.md §9). Windows are the big ones:
 * the reference server answers windows of up to 1,000 items on each side, and a real server's
 * items carry metadata and artwork URLs, so a valid 2,001-item window can reach a few MB; 8 MB
 * leaves room for that while a hostile or broken server costs the engine at most 8 MB a request.
 */
export const PLAYER_MAX_BODY_BYTES = 8 * 1_048_576;

export interface CloudQueueClientOptions {
  playerId: string;
  clock: EngineClock;
  transport?: HttpTransport;
  onExchange?: (exchange: PlayerExchange) => void;
  /** Bytes read of one answer before it is cut and refused; default PLAYER_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** Shared by many clients (a fleet's players): how many answers are read past a small size at once. */
  bodyBudget?: BodyBudget;
  /** More headers for every request of this client (a conformance case's own player); never replace the player's own. */
  headers?: Record<string, string>;
  /**
   * Keep every response header of an exchange, not only those the player reads: a conformance
   * run's evidence shows the server's answer as it came (docs/conformance.md). A player's own
   * exchanges keep the few it reads, which is all its traffic entries need.
   */
  allResponseHeaders?: boolean;
  /**
   * The timer that gives a request up after 10 s; default the engine clock. A fleet at speed 10
   * passes a wall timer: its server answers in real time, so its players wait 10 real seconds.
   */
  timeouts?: RequestTimeouts;
  /** Told as each request begins and ends: the players' requests under way, engine-wide (requests-in-flight.ts). */
  inFlight?: { begin(playerId: string, at: number): number; end(ticket: number, withState: boolean): void };
}

/** Where the request timeout is armed (the engine clock, or a wall clock). */
export interface RequestTimeouts {
  setTimeout(callback: () => void, delayMs: number): unknown;
  clearTimeout(timer: unknown): void;
}

export interface WindowQuery extends WindowRequest {
  reason: Reason;
  queueVersion?: string;
}

export class CloudQueueClient {
  private readonly transport: HttpTransport;

  constructor(private readonly options: CloudQueueClientOptions) {
    this.transport = options.transport ?? fetchTransport;
  }

  context(target: CloudQueueTarget, retry = 0): Promise<ClientResult<ContextResponse>> {
    return this.exchange(target, { endpoint: 'context', method: 'GET', retry }, checkContext);
  }

  itemWindow(target: CloudQueueTarget, query: WindowQuery, retry = 0): Promise<ClientResult<ItemWindowResponse>> {
    const params: Record<string, string> = {
      reason: query.reason,
      previousWindowSize: String(query.previousWindowSize),
      upcomingWindowSize: String(query.upcomingWindowSize),
    };
    if (query.itemId !== undefined) params.itemId = query.itemId;
    if (query.queueVersion !== undefined) params.queueVersion = query.queueVersion;
    return this.exchange(
      target,
      { endpoint: 'itemWindow', method: 'GET', query: params, reason: query.reason, retry },
      (body) => checkItemWindow(body, query),
    );
  }

  version(target: CloudQueueTarget, retry = 0): Promise<ClientResult<VersionResponse>> {
    return this.exchange(target, { endpoint: 'version', method: 'GET', retry }, checkVersion);
  }

  /** Its answer is read by `checkTimePlayedAnswer`: any 2xx is a success, what it carries aside. */
  timePlayed(target: CloudQueueTarget, items: PlaybackReport[], retry = 0): Promise<ClientResult<TimePlayedAnswer>> {
    return this.exchange(
      target,
      { endpoint: 'timePlayed', method: 'POST', body: JSON.stringify({ items }), retry },
      () => ({ violations: [] }),
    );
  }

  private async exchange<T>(
    target: CloudQueueTarget,
    spec: {
      endpoint: CloudQueueEndpoint;
      method: 'GET' | 'POST';
      query?: Record<string, string>;
      body?: string;
      reason?: Reason;
      retry: number;
    },
    check: (body: unknown) => { value?: T; violations: Violation[] },
  ): Promise<ClientResult<T>> {
    const { clock } = this.options;
    // A base URL no request can be made to fails this request like any other (the control API
    // refuses one, but a saved player or a script may still hold it): it must not throw out of
    // the player's background work, where nothing would catch it.
    const url = URL.canParse(target.queueBaseUrl) ? endpointUrl(target.queueBaseUrl, spec.endpoint, spec.query) : null;
    const requestId = randomUUID();
    const headers: Record<string, string> = {
      ...this.options.headers,
      ...target.headers,
      accept: 'application/json',
      'x-player-id': this.options.playerId,
      'x-request-id': requestId,
    };
    if (target.httpAuthorization) headers.authorization = target.httpAuthorization;
    if (spec.body !== undefined) headers['content-type'] = 'application/json';
    const exchange: PlayerExchange = {
      requestId,
      playerId: this.options.playerId,
      endpoint: spec.endpoint,
      method: spec.method,
      url: url ?? target.queueBaseUrl,
      reason: spec.reason,
      retry: spec.retry,
      requestHeaders: headers,
      requestBody: spec.body,
      startedAt: clock.now(),
      wallAt: Date.now(),
      durationMs: 0,
      latencyMs: 0,
      violations: [],
      trafficId: null,
    };
    const wallStart = performance.now();
    const finish = (result: ClientResult<T>): ClientResult<T> => {
      exchange.durationMs = Math.round(clock.now() - exchange.startedAt);
      exchange.latencyMs = Math.round(performance.now() - wallStart);
      if (!result.ok) exchange.failure = result.failure;
      this.options.onExchange?.(exchange);
      return result;
    };

    if (url === null)
      return finish({
        ok: false,
        failure: { kind: 'other', message: `queueBaseUrl ${JSON.stringify(target.queueBaseUrl)} is not a URL` },
        exchange,
      });
    const abort = new AbortController();
    const timeouts = this.options.timeouts;
    const giveUp = () => abort.abort(new Error('no complete response within 10 s'));
    const timeout = timeouts
      ? timeouts.setTimeout(giveUp, REQUEST_TIMEOUT_MS)
      : clock.setTimeout(giveUp, REQUEST_TIMEOUT_MS, `request ${spec.endpoint}`);
    // The status line, once it came: a body that then does not end is said so, not as silence.
    let head: number | undefined;
    const underWay = this.options.inFlight?.begin(this.options.playerId, exchange.startedAt);
    try {
      const response = await clock.track(
        this.transport({ method: spec.method, url, headers, body: spec.body, signal: abort.signal }),
        requestId,
      );
      head = response.status;
      exchange.responseHeaders = pickHeaders(response.headers, this.options.allResponseHeaders === true);
      // Known from the head: a body that then breaks off keeps them (review).
      if (response.resentAfter) exchange.resentAfter = response.resentAfter;
      if (response.redirectedTo) exchange.redirectedTo = response.redirectedTo;
      const read = await clock.track(
        readCappedBody(
          response,
          this.options.maxBodyBytes ?? PLAYER_MAX_BODY_BYTES,
          abort.signal,
          this.options.bodyBudget,
        ),
        requestId,
      );
      if (response.fault) exchange.fault = response.fault;
      // An answer the client will not read whole is no complete answer: no status, a violation naming why.
      if (!read.ok) return finish(refused(exchange, response.status, read.text, 'size', read.message));
      const text = read.text;
      const deep = depthRefusal(text);
      if (deep) return finish(refused(exchange, response.status, text, 'depth', deep));
      exchange.status = response.status;
      exchange.responseBody = text;
      if (response.status >= 200 && response.status < 300) {
        if (spec.endpoint === 'timePlayed') {
          const answer = checkTimePlayedAnswer(response.status, text);
          exchange.violations.push(...answer.violations);
          return finish({ ok: true, value: answer.value as T, exchange });
        }
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          const violation: Violation = {
            endpoint: spec.endpoint,
            severity: 'malformed',
            rule: `${spec.endpoint}.json`,
            message: `status ${response.status} with a body that is not JSON`,
          };
          exchange.violations.push(violation);
          return finish({
            ok: false,
            failure: { kind: 'other', status: response.status, message: violation.message },
            exchange,
          });
        }
        const checked = check(body);
        exchange.violations.push(...checked.violations);
        if (checked.value === undefined) {
          const message = checked.violations.find((v) => v.severity === 'malformed')?.message ?? 'malformed body';
          return finish({
            ok: false,
            failure: { kind: 'other', status: response.status, message: `malformed ${spec.endpoint}: ${message}` },
            exchange,
          });
        }
        return finish({ ok: true, value: checked.value, exchange });
      }
      return finish({ ok: false, failure: failureOf(response, text, serverTime(response) ?? clock.now()), exchange });
    } catch (error) {
      const fault = (error as { fault?: FaultHit }).fault;
      if (fault) exchange.fault = fault;
      const unreadable = head === undefined && !fault ? unreadableAnswer(error) : undefined;
      return finish({
        ok: false,
        failure: unreadable?.answered
          ? { kind: 'incomplete', message: unreadable.message, unreadable: true }
          : error instanceof UnfinishedHead || (head !== undefined && undecodable(error))
            ? { kind: 'incomplete', message: incompleteMessage(error, abort.signal, head), unreadable: true }
            : {
                kind: 'incomplete',
                message: unreadable?.message ?? incompleteMessage(error, abort.signal, head),
                ...(!unreadable && droppedConnection(error, abort.signal) ? { dropped: true as const } : {}),
              },
        exchange,
      });
    } finally {
      // A report taken with no body changes nothing; a fault rule's timing the replay's rules repeat.
      if (underWay !== undefined) {
        const reportTaken =
          spec.endpoint === 'timePlayed' && head !== undefined && head >= 200 && head < 300 && !exchange.responseBody;
        this.options.inFlight?.end(underWay, head !== undefined && !reportTaken && exchange.fault === undefined);
      }
      if (timeouts) timeouts.clearTimeout(timeout);
      else clock.clearTimeout(timeout as Timer);
    }
  }
}

/**
 * An answer the client does not read whole: over the byte cap, or nested too deep to parse. The
 * player cannot use it and retrying would fetch the same again, so it fails like a malformed
 * body; the exchange keeps the start of it to show, and no status (no complete answer was read).
 */
function refused<T>(
  exchange: PlayerExchange,
  status: number,
  text: string,
  limit: 'size' | 'depth',
  message: string,
): ClientResult<T> {
  exchange.responseBody = text.length > CUT_TEXT_BYTES ? text.slice(0, CUT_TEXT_BYTES) : text;
  exchange.violations.push({
    endpoint: exchange.endpoint,
    severity: 'malformed',
    rule: `${exchange.endpoint}.${limit}`,
    message: `status ${status}, but ${message}`,
  });
  return { ok: false, failure: { kind: 'other', status, message }, exchange };
}

/** `{queueBaseUrl}context`, tolerating a base URL given without its trailing slash. */
export function endpointUrl(
  queueBaseUrl: string,
  endpoint: CloudQueueEndpoint,
  query?: Record<string, string>,
): string {
  const base = queueBaseUrl.endsWith('/') ? queueBaseUrl : `${queueBaseUrl}/`;
  const url = new URL(endpoint, base);
  for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * When the server answered, by its own clock (the `Date` header). A Retry-After date is measured
 * from it (RFC 9110 §10.2.3): server time, not the engine's, which a test may have moved by days.
 */
function serverTime(response: HttpResponse): number | undefined {
  const date = Date.parse(response.headers.get('date') ?? '');
  return Number.isNaN(date) ? undefined : date;
}

/** `now`: the time a Retry-After date is measured from. */
function failureOf(response: HttpResponse, body: string, now: number): Failure {
  const status = response.status;
  const rejectedReason = response.headers.get('x-rejected-reason') ?? undefined;
  const message = `${status}${rejectedReason ? ` (${rejectedReason})` : ''}${errorMessage(body)}`;
  if (status === 503)
    return {
      kind: 'unavailable',
      status,
      retryAfterSec: parseRetryAfter(response.headers.get('retry-after'), now),
      message,
    };
  if (status === 404) return { kind: 'notFound', status, message };
  return { kind: 'other', status, rejectedReason, message };
}

/** The message of a contract error body, when the server sent one. */
function errorMessage(body: string): string {
  const parsed = parseJsonWithin(body);
  const message = parsed.ok ? (parsed.value as { error?: { message?: unknown } } | null)?.error?.message : undefined;
  return typeof message === 'string' ? `: ${message}` : '';
}

function incompleteMessage(error: unknown, signal: AbortSignal, head: number | undefined): string {
  if ((error as { fault?: unknown }).fault) return (error as Error).message;
  if (error instanceof UnfinishedHead) {
    const began = `${error.bytes.toLocaleString('en-US')} bytes of its answer came; its status line and headers did not end`;
    return `${signal.aborted ? 'no complete response within 10 s' : error.message} (${began})`;
  }
  if (signal.aborted)
    return `no complete response within 10 s${head === undefined ? '' : ` (its ${head} came; the body did not end)`}`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const why = cause?.code ?? cause?.message ?? (error as Error).message;
  const hint = cause?.code ? CONNECTION_HINTS[cause.code] : undefined;
  if (head === undefined) return `connection failed: ${why}${hint ? ` (${hint})` : ''}`;
  // Whole, but not in the coding it names (raw deflate labelled deflate): not a body that broke off (audit).
  if (undecodable(error))
    return `its ${head} came, but its body is not in the Content-Encoding it names (${(error as Error).message})`;
  return `its ${head} came, then the body broke off: ${why}`;
}

/**
 * Whether a request failed on a connection the server took and then broke: a reset or a hang-up
 * before the answer, or a body that broke off after its head. Not a timeout, a refused or
 * unresolvable connection, an injected fault, a request this side aborted, nor an answer that
 * came in a form no client reads.
 */
function droppedConnection(error: unknown, signal: AbortSignal): boolean {
  if (signal.aborted || (error as { fault?: unknown }).fault || error instanceof UnfinishedHead || undecodable(error))
    return false;
  if ((error as { name?: unknown }).name === 'AbortError') return false;
  const cause = (error as { cause?: { code?: unknown } }).cause;
  const code = cause?.code ?? (error as { code?: unknown }).code;
  return typeof code === 'string' && BROKEN_CONNECTION_CODES.has(code);
}

/** A connection the other side broke (node:http's codes, and undici's "other side closed"). */
const BROKEN_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * zlib's and Brotli's words for bytes that are not the compressed format named (a truncated stream
 * is Z_BUF_ERROR, or Brotli's _ERROR_FORMAT_… only where the data itself is bad: review).
 */
function undecodable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  return code === 'Z_DATA_ERROR' || (typeof code === 'string' && code.startsWith('ERR__ERROR_FORMAT_'));
}

/** What a bare code most often means, for whoever reads it: a TLS mismatch looks like nothing else. */
const CONNECTION_HINTS: Record<string, string> = {
  EPROTO: 'no TLS there: an http server asked over https://?',
  ERR_SSL_WRONG_VERSION_NUMBER: 'no TLS there: an http server asked over https://?',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'a self-signed certificate: NODE_EXTRA_CA_CERTS=FILE trusts a development one',
  SELF_SIGNED_CERT_IN_CHAIN: 'a certificate signed by an untrusted CA: NODE_EXTRA_CA_CERTS=FILE trusts it',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'a certificate signed by an untrusted CA: NODE_EXTRA_CA_CERTS=FILE trusts it',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'a certificate signed by an untrusted CA: NODE_EXTRA_CA_CERTS=FILE trusts it',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate names another host',
};

/**
 * Why an answer that came could not be read, in words, or undefined when the failure was no
 * answer at all (refused, reset, silent). `answered`: an HTTP server answered, wrongly (headers
 * over the limit, a redirect loop, a status line or a header line that breaks HTTP's rules);
 * bytes that do not even begin as HTTP (a TLS or SSH server on the port) are no answer, only a
 * better word for why. fetch and node:http say it with the same codes.
 */
function unreadableAnswer(error: unknown): { message: string; answered: boolean } | undefined {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  if (code === 'HPE_HEADER_OVERFLOW' || code === 'UND_ERR_HEADERS_OVERFLOW')
    return {
      message: `the server answered with headers over 16 KB, more than an HTTP client reads (${code})`,
      answered: true,
    };
  if (cause instanceof UnfollowableRedirect)
    return {
      message: `the server answered ${cause.status} redirecting to ${JSON.stringify(cause.location.slice(0, 200))}, a URL no player follows (only http and https)`,
      answered: true,
    };
  if (cause instanceof UnaskedUpgrade)
    return {
      message: `the server answered ${cause.status} Switching Protocols${cause.upgrade ? ` (Upgrade: ${JSON.stringify(cause.upgrade.slice(0, 100))})` : ''}, an upgrade the request did not ask for: no player speaks another protocol there`,
      answered: true,
    };
  if (cause?.message === 'redirect count exceeded')
    return { message: 'the server redirected the request more than 20 times (a redirect loop?)', answered: true };
  // llhttp's code for bytes that are not "HTTP/" where an answer begins.
  if (code === 'HPE_INVALID_CONSTANT')
    return {
      message: `connection failed: what came back is not HTTP (${code}); an https server asked over http://?`,
      answered: false,
    };
  if (code.startsWith('HPE_'))
    return {
      message: `the server's answer began as HTTP and then broke its rules, which no HTTP client reads (${code}: ${HTTP_BREAKS[code] ?? 'a malformed answer'})`,
      answered: true,
    };
  return undefined;
}

/** What llhttp's codes for an answer that broke HTTP's rules mean, for the common ones. */
const HTTP_BREAKS: Record<string, string> = {
  HPE_INVALID_VERSION: 'an HTTP version that is not one',
  HPE_INVALID_STATUS: 'a status line without a three-digit status',
  HPE_INVALID_HEADER_TOKEN: 'a header line that is not a name and a value',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size that is not a hexadecimal number',
  // llhttp's names, not what they say: it refuses a Content-Length given twice, with one value too
  // (UNEXPECTED), and one beside Transfer-Encoding as INVALID or, after it, as INVALID_TRANSFER_ENCODING (audit).
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length given twice',
  HPE_INVALID_CONTENT_LENGTH: 'a Content-Length that is not a number, or one beside Transfer-Encoding',
  HPE_INVALID_TRANSFER_ENCODING: 'a Transfer-Encoding beside Content-Length, or one not ending in chunked',
  HPE_CR_EXPECTED: 'a line not ended with CRLF',
  HPE_LF_EXPECTED: 'a line not ended with CRLF',
};

/** Response headers a client keeps of one answer, at most: a server may send thousands. */
const MAX_KEPT_HEADERS = 100;

function pickHeaders(headers: HttpResponse['headers'], all: boolean): Record<string, string> {
  const picked: Record<string, string> = {};
  if (all && headers.forEach) {
    let kept = 0;
    headers.forEach((value, name) => {
      if (kept++ < MAX_KEPT_HEADERS) picked[name.toLowerCase()] = value;
    });
    return picked;
  }
  for (const name of ['content-type', 'retry-after', 'x-rejected-reason', 'content-length']) {
    const value = headers.get(name);
    if (value !== null) picked[name] = value;
  }
  return picked;
}
