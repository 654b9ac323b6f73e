/**
 * HTTP helpers for engine tests: real requests over loopback, including ones a browser would
 * never send (a foreign Host header).
 */
import { request as httpRequest, type Agent } from 'node:http';
import { createEngine, type Engine, type EngineOptions } from '../index.js';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * `body` as parts: each written as it comes, `between` awaited before every part after the first
 * (a pause, or what must happen while the server waits for the rest of the body).
 */
export function rawRequest(
  url: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | readonly string[];
    between?: () => Promise<unknown>;
    agent?: Agent;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const options = {
      method: init.method ?? 'GET',
      headers: init.headers,
      ...(init.agent ? { agent: init.agent } : {}),
    };
    const req = httpRequest(url, options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    const parts = init.body === undefined ? [] : typeof init.body === 'string' ? [init.body] : init.body;
    void (async () => {
      for (const [index, part] of parts.entries()) {
        if (index > 0) await init.between?.();
        req.write(part);
      }
      req.end();
    })().catch(reject);
  });
}

/** An ephemeral engine on free ports; close it in afterEach/afterAll. */
export function startTestEngine(options: Partial<EngineOptions> = {}): Promise<Engine> {
  return createEngine({ dataDir: null, port: 0, ...options });
}

/** Calls the admin API with the engine's token. */
export async function admin(
  engine: Engine,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${engine.urls.console}/admin/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${engine.adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** An admin call that must answer 200: its body, or an error that names the call and its answer. */
export async function adminOk<T>(engine: Engine, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await admin(engine, method, path, body);
  if (answer.status !== 200)
    throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

/** A control API POST through the admin API (`/control/send`), as the console's command bar sends it. */
export const controlSend = <T = { status: number; body: unknown }>(engine: Engine, path: string, body?: unknown) =>
  adminOk<T>(engine, 'POST', '/control/send', { method: 'POST', path, body });

/** The engine clock moved on by `advanceMs`. */
export const advanceClock = (engine: Engine, advanceMs: number) => adminOk(engine, 'POST', '/clock', { advanceMs });
