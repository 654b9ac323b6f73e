/**
 * The listeners' response: every head it writes carries SECURITY_HEADERS, whoever writes it
 * (routes and 404s, but also what no hook reaches: fastify's refusal of a malformed URL, its 503
 * while closing, an event stream written raw). A header a route gave itself, in any case or by
 * `setHeader`, is kept and not sent twice.
 *
 * Added as the head is written rather than set on each response as it starts: one header set with
 * `setHeader` before fastify's `writeHead` sends node down its merging path, which sets and
 * validates each of fastify's headers again, about a µs of every answer of every listener
 * (docs/decisions/perf-cold-windows.md, seventh round). The headers object given is not changed:
 * what is missing goes out in a copy.
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
    const given = (reason === undefined ? (headers ?? reasonOrHeaders) : headers) as HeadersGiven;
    let sent = given;
    if (given == null || Array.isArray(given)) {
      // No headers object (`end()` without a head) or node's array form, which node sets after these.
      for (const name of NAMES) if (!this.hasHeader(name)) this.setHeader(name, SECURITY_HEADERS[name]!);
    } else {
      const missing = this.missingFrom(given);
      if (missing !== null) sent = { ...given, ...missing };
    }
    // Through node's own function with the arguments as given, the headers maybe completed.
    return reason === undefined
      ? super.writeHead(statusCode, sent as OutgoingHttpHeaders)
      : super.writeHead(statusCode, reason, sent as OutgoingHttpHeaders);
  }

  /** node's other name for `writeHead` (undocumented, bound to node's own function): through this one too. */
  writeHeader(statusCode: number, reasonOrHeaders?: string | HeadersGiven, headers?: HeadersGiven): this {
    return this.writeHead(statusCode, reasonOrHeaders, headers);
  }

  /** The security headers neither in `given` (its names in any case) nor set on the response; null: none. */
  private missingFrom(given: OutgoingHttpHeaders): Record<string, string> | null {
    let missing: Record<string, string> | null = null;
    for (const name of NAMES) {
      if (this.hasHeader(name)) continue;
      (missing ??= {})[name] = SECURITY_HEADERS[name]!;
    }
    if (missing === null) return null;
    // Only a name as long as one of ours is lowered and compared: fastify's few names, once each.
    for (const key in given) if (LENGTHS.has(key.length)) delete missing[key.toLowerCase()];
    return Object.keys(missing).length > 0 ? missing : null;
  }
}
