/**
 * Only the console's own page may keep its admin calls out of the traffic log, never a script
 * (docs/contract/console.md §9): the page is given a key, made afresh at every start, in a cookie
 * when the console serves it, and its calls count as the UI's when they carry both the
 * `X-Console-UI` header (CONSOLE_UI_HEADER) and that key. A script that sends the header alone,
 * or a wrong key, is logged like any call.
 *
 * A cookie rather than a value the page reads and sends: the browser sends it with the page's
 * calls by itself (the renderer's transport needs no change), it is HttpOnly (no script in the
 * page reads it) and SameSite=Strict. Its name carries the console's port, since cookies are kept
 * per host, not per port, and two consoles on one machine must not take each other's key.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONSOLE_UI_HEADER } from '../api/traffic-types.js';

export class ConsoleUiKey {
  private readonly value = randomBytes(24).toString('base64url');

  /** The cookie a page served over `request`'s connection is given: sent back on the admin API's paths only. */
  cookie(request: FastifyRequest): string {
    return `${nameFor(request)}=${this.value}; Path=/admin/api; HttpOnly; SameSite=Strict`;
  }

  /** Whether a request is the console page's own call: the header and this start's key. */
  marks(request: FastifyRequest): boolean {
    if (request.headers[CONSOLE_UI_HEADER] === undefined) return false;
    const cookies = request.headers.cookie;
    if (cookies === undefined) return false;
    const wanted = `${nameFor(request)}=${this.value}`;
    return cookies.split(';').some((pair) => pair.trim() === wanted);
  }
}

/** The cookie's name: by the listener's port, which the page's calls reach as the page did. */
function nameFor(request: FastifyRequest): string {
  return `cqc-ui-${request.raw.socket?.localPort ?? 0}`;
}

/** The key of a console listener: one per app, made by whichever asks first (the console app or its capture). */
const keys = new WeakMap<FastifyInstance, ConsoleUiKey>();

export function consoleUiKeyOf(app: FastifyInstance): ConsoleUiKey {
  let key = keys.get(app);
  if (!key) keys.set(app, (key = new ConsoleUiKey()));
  return key;
}
