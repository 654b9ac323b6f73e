/**
 * Test helpers for events: an integration's event receiver (a real HTTP server that records what
 * arrives and answers what a test scripts), an integration with a callback URL and a token of its
 * own, and calls to the control API with that token. The receiver checks nothing itself: tests
 * check the signature with their own copy of the recipe in docs/events.md.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CreatedIntegration } from '../api/oauth-types.js';
import type { Engine } from '../index.js';
import { codeFor, createTestIntegration, LOOPBACK_REDIRECT, tokenRequest } from '../testing/oauth.js';

export interface ReceivedEvent {
  headers: Record<string, string>;
  body: string;
  /** The status the receiver answered. */
  status: number;
}

export class EventReceiver {
  readonly events: ReceivedEvent[] = [];
  /** Statuses to answer next, one per request; then 200. */
  readonly answers: number[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        const status = this.answers.shift() ?? 200;
        const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
        this.events.push({ headers, body, status });
        response.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'no');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/events`;
    return this;
  }

  /** The events answered 2xx, in the order they arrived. */
  get delivered(): ReceivedEvent[] {
    return this.events.filter((e) => e.status >= 200 && e.status < 300);
  }

  /** Waits (in real time) until `count` requests arrived that `which` picks. */
  async until(
    count: number,
    which: (event: ReceivedEvent) => boolean = () => true,
    timeoutMs = 5_000,
  ): Promise<ReceivedEvent[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.filter(which);
      if (found.length >= count) return found;
      if (Date.now() > deadline)
        throw new Error(
          `${found.length} of ${count} events arrived: ${JSON.stringify(this.events.map((e) => [e.headers['x-sonos-namespace'], e.body]))}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export interface ConnectedIntegration {
  client: CreatedIntegration;
  accessToken: string;
}

/** An integration (with `eventCallbackUrl` when given) and an access token of its first key. */
export async function connectedIntegration(engine: Engine, eventCallbackUrl?: string): Promise<ConnectedIntegration> {
  const client = await createTestIntegration(engine, eventCallbackUrl === undefined ? {} : { eventCallbackUrl });
  const code = await codeFor(engine, client);
  const issued = await tokenRequest(engine, client, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: LOOPBACK_REDIRECT,
  });
  if (issued.status !== 200) throw new Error(`the code exchange answered ${issued.status}`);
  return { client, accessToken: String(issued.body.access_token) };
}

/** A control API call with a bearer token; the body is parsed when it is JSON. */
export async function controlCall(
  engine: Engine,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${engine.urls.control}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // text/plain (a 401)
  }
  return { status: response.status, body: parsed };
}
