/**
 * The listeners' response: every head it writes carries SECURITY_HEADERS, whoever writes it
 * (routes and 404s, but also what no hook reaches: fastify's refusal of a malformed URL, its 503
 * while closing, an event stream written raw). A header a route gave itself, in any case or by
 * `setHeader`, is kept and not sent twice.
 *
 * Added as the head is written rather than set on each response as it starts: one header set with
 * `setHeader` before fastify's `writeHead` sends node down its merging path, which sets and
 * validates each of fastify's headers again, about a µs of every answer of every listener
 * (docs/decisions/perf-cold-windows.md, seventh round). What is missing is added to the headers
 * object given (fastify's is the reply's own; a copy of it cost as much as the merging path); a
 * frozen one is copied.
 */
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';

/**
 * On every answer of all four listeners: no MIME sniffing (a JSON or text answer is never run as
 * a script or page), and no Referer leaving a console or login page (its URL can hold a sign-in
 * id or an error naming a client). Names in lower case.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
const NAMES = Object.keys(SECURITY_HEADERS);
const LENGTHS = new Set(NAMES.map((name) => name.length));

type HeadersGiven = OutgoingHttpHeaders | OutgoingHttpHeader[] | null | undefined;

export class SecureResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override writeHead(statusCode: number, reasonOrHeaders?: string | HeadersGiven, headers?: HeadersGiven): this {
    // As node reads its arguments: a reason phrase only as a string, the headers after it or in its place.
    const reason = typeof reasonOrHeaders === 'string' ? reasonOrHeaders : undefined;
    let given = (reason === undefined ? (headers ?? reasonOrHeaders) : headers) as HeadersGiven;
    if (given == null || Array.isArray(given)) {
      // No headers object (`end()` without a head) or node's array form, which node sets after these.
      for (const name of NAMES) if (!this.hasHeader(name)) this.setHeader(name, SECURITY_HEADERS[name]!);
    } else {
      given = this.completed(given);
    }
    return reason === undefined
      ? super.writeHead(statusCode, given as OutgoingHttpHeaders)
      : super.writeHead(statusCode, reason, given as OutgoingHttpHeaders);
  }

  /** node's other name for `writeHead` (undocumented, bound to node's own function): through this one too. */
  writeHeader(statusCode: number, reasonOrHeaders?: string | HeadersGiven, headers?: HeadersGiven): this {
    return this.writeHead(statusCode, reasonOrHeaders, headers);
  }

  /** `given` with the security headers it lacks, in no case of their names nor set on the response. */
  private completed(given: OutgoingHttpHeaders): OutgoingHttpHeaders {
    let missing = 0;
    for (let i = 0; i < NAMES.length; i++)
      if (given[NAMES[i]!] === undefined && !this.hasHeader(NAMES[i]!)) missing |= 1 << i;
    if (missing === 0) return given;
    // A route may write a name in its own case: only names as long as one of ours are lowered.
    for (const key in given) {
      if (!LENGTHS.has(key.length)) continue;
      const i = NAMES.indexOf(key.toLowerCase());
      if (i !== -1) missing &= ~(1 << i);
    }
    if (missing === 0) return given;
    const target = Object.isExtensible(given) ? given : { ...given };
    for (let i = 0; i < NAMES.length; i++) if (missing & (1 << i)) target[NAMES[i]!] = SECURITY_HEADERS[NAMES[i]!];
    return target;
  }
}
