/**
 * What a connection may hold of a listener before it has earned anything (docs/contract/console.md
 * §9: nothing a request without valid credentials sends grows state without bound, and no single
 * request stalls a listener). Five rules, the same on all four listeners:
 *
 * - **Headers in 15 s.** A connection that sends nothing, or drips a header line a second, is
 *   answered 408 and closed once HEADERS_ARRIVAL_TIMEOUT_MS have passed since it connected (or
 *   since its request began, on a kept-alive connection). Node's default (60 s, looked at every
 *   30 s) held such a connection for up to 90 s; a loopback client sends its headers in a
 *   millisecond. Not less: Chromium opens connections ahead of requests and lets an unused one go
 *   after 10 s of its own, and a 408 racing a request it sends at that moment would fail it. The
 *   body has its own deadline (REQUEST_ARRIVAL_TIMEOUT_MS in service-app.ts).
 * - **An idle kept-alive connection goes after 5 s** (KEEP_ALIVE_IDLE_MS), Node's own default,
 *   which the `Keep-Alive: timeout=5` header tells its clients. Fastify's 72 s let one request,
 *   refused 401 or not, hold its connection for over a minute: 1,024 of them held a listener shut
 *   for as long (audit of 5 December 2026). The console's players let theirs go after 4 s.
 * - **A cap on connections.** All four listeners live in one process and share its file
 *   descriptors with the stores: a listener holds no more than its cap at once, so a flood of
 *   connections to one listener leaves the others, and SQLite, their share. At the cap a new
 *   connection takes the place of the oldest one not being answered, so that the flood does not
 *   keep the listener's own clients out either (`connection-cap.ts`). The cloud queue listener
 *   takes more: a fleet of thousands of players plays against it (docs/fleet.md), each request on
 *   a connection of its own while it waits.
 * - **An answer the client stops reading goes after 30 s**, sooner when unread answers pile up
 *   (`unread-answers.ts`).
 * - **`100 Continue` only for a body that will be read.** Node answers `Expect: 100-continue` at
 *   once by default, so a client that honours it began uploading a body its request was about to
 *   be refused for (401, 404, 413). The interim answer now goes out when the body's reader starts
 *   reading it; a request refused before that gets its final answer alone.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { capConnections } from './connection-cap.js';
import { cutUnreadAnswers, PENDING_BUDGET_BYTES, SEND_STALL_MS } from './unread-answers.js';

export { PENDING_BUDGET_BYTES, SEND_STALL_MS } from './unread-answers.js';

export const HEADERS_ARRIVAL_TIMEOUT_MS = 15_000;
export const KEEP_ALIVE_IDLE_MS = 5_000;
/** How often Node looks for connections past their deadline: the deadline is kept within this. */
export const CONNECTIONS_CHECKED_EVERY_MS = 1_000;
/** Connections one listener holds at once; the cloud queue listener's is CLOUD_QUEUE_MAX_CONNECTIONS. */
export const MAX_CONNECTIONS = 1_024;
/**
 * The caps together stay under a common descriptor limit (20,000) with the fleet's own client
 * sockets counted, one per connection, in the same process: 3 × 1,024 + 6,144 served + 6,144 asking.
 */
export const CLOUD_QUEUE_MAX_CONNECTIONS = 6_144;

export interface ConnectionGuardOptions {
  /** See HEADERS_ARRIVAL_TIMEOUT_MS (tests shorten it). */
  headersTimeoutMs?: number;
  /** See MAX_CONNECTIONS. */
  maxConnections?: number;
  /** See KEEP_ALIVE_IDLE_MS (tests shorten it). */
  keepAliveIdleMs?: number;
  /** See SEND_STALL_MS in unread-answers.ts (tests shorten it). */
  sendStallMs?: number;
  /** See PENDING_BUDGET_BYTES in unread-answers.ts (tests lower it). */
  pendingBudgetBytes?: number;
}

/** The options Node's HTTP server takes only when it is made. */
export function guardedServerOptions({ headersTimeoutMs = HEADERS_ARRIVAL_TIMEOUT_MS }: ConnectionGuardOptions) {
  return {
    headersTimeout: headersTimeoutMs,
    connectionsCheckingInterval: Math.min(CONNECTIONS_CHECKED_EVERY_MS, headersTimeoutMs),
  };
}

/** The rules set on a server once it is made (see the file's comment). */
export function guardConnections(
  server: Server,
  {
    maxConnections = MAX_CONNECTIONS,
    keepAliveIdleMs = KEEP_ALIVE_IDLE_MS,
    sendStallMs = SEND_STALL_MS,
    pendingBudgetBytes = PENDING_BUDGET_BYTES,
  }: ConnectionGuardOptions,
): void {
  capConnections(server, maxConnections);
  server.keepAliveTimeout = keepAliveIdleMs;
  // With a listener for it, Node leaves the interim answer to us; the request goes on as any other.
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) =>
    server.emit('request', request, response),
  );
  cutUnreadAnswers(server, { stallMs: sendStallMs, budgetBytes: pendingBudgetBytes });
}

/**
 * Sends `100 Continue` when the body's reader starts reading (`resume`: fastify's parser, `pipe`
 * and a route's own reader all call it), if the client asked for one and no answer went out yet.
 */
export function continueWhenRead(raw: IncomingMessage, answer: ServerResponse, body: Readable): void {
  const expect = raw.headers.expect;
  if (expect === undefined || expect.toLowerCase() !== '100-continue') return;
  let sent = false;
  const go = (): void => {
    if (sent || answer.headersSent || answer.writableEnded) return;
    sent = true;
    answer.writeContinue();
  };
  if (body.readableFlowing === true) return go();
  body.once('resume', go);
  if (body !== raw) raw.once('resume', go);
}
