/**
 * "Copy as curl" and "Copy as fetch" for any request the console shows: a traffic
 * entry, a command bar call, a flow's token request. Pure, and shared with the renderer (which
 * imports only `main/engine/api/`), so every copy button writes the same thing.
 *
 * - curl is quoted for POSIX shells: every argument in single quotes (a `'` written `'\''`), so
 *   nothing in a URL, header or body is expanded, split or run by the shell, newlines included;
 *   the body goes with `--data-raw`, which never reads a file for a leading `@`.
 * - fetch is JavaScript whose every string is a JSON string literal.
 * - Secrets are masked unless `reveal` (docs/contract/console.md §9): credential headers, and the
 *   fields and parameters named like secrets in the query, a form or a JSON body, as the traffic
 *   log masks them (the first four characters kept, so two tokens can be told apart). Masking a
 *   mask changes nothing, so a request the engine masked already comes out the same.
 * - Headers a client sets itself (Host, Content-Length, Connection…) are left out: a masked body
 *   has another length, and curl and fetch write their own.
 */
import { maskCredential, redactForm, redactJson, redactUrl, SECRET_HEADERS } from './redact.js';

export interface CopyableRequest {
  method: string;
  url: string;
  headers?: Readonly<Record<string, string>>;
  /** As sent (text), or a value sent as JSON; null or undefined: no body. */
  body?: unknown;
}

export interface CopyOptions {
  /** Leave secrets as they are (the caller has revealed them). Default false. */
  reveal?: boolean;
}

/** Set by the client, not by the one who copies the request. */
const CLIENT_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'accept-encoding',
  'te',
  'upgrade',
]);

/** The request as a curl command line, secrets masked unless `reveal`. */
export function curlOf(request: CopyableRequest, options: CopyOptions = {}): string {
  const { method, url, headers, body } = prepared(request, options);
  // A body alone would make curl POST: any other method with one is named.
  const first = [
    'curl',
    ...(method !== 'GET' || body !== null ? [`-X ${shellQuote(method)}`] : []),
    shellQuote(url),
  ].join(' ');
  const args = [first];
  for (const [name, value] of headers) args.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (body !== null) args.push(`--data-raw ${shellQuote(body)}`);
  return args.join(' \\\n  ');
}

/** The request as a `fetch` call, secrets masked unless `reveal`. */
export function fetchOf(request: CopyableRequest, options: CopyOptions = {}): string {
  const { method, url, headers, body, json } = prepared(request, options);
  const init: string[] = [`  method: ${JSON.stringify(method)},`];
  if (headers.length > 0)
    init.push(
      `  headers: {\n${headers.map(([name, value]) => `    ${JSON.stringify(name)}: ${JSON.stringify(value)},`).join('\n')}\n  },`,
    );
  if (body !== null)
    init.push(
      json !== undefined
        ? `  body: JSON.stringify(${JSON.stringify(json, null, 2).replaceAll('\n', '\n  ')}),`
        : `  body: ${JSON.stringify(body)},`,
    );
  return `await fetch(${JSON.stringify(url)}, {\n${init.join('\n')}\n});`;
}

/** A word a POSIX shell reads back as exactly `value`. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

interface Prepared {
  method: string;
  url: string;
  headers: [string, string][];
  body: string | null;
  /** The body as a value, when it is JSON. */
  json?: unknown;
}

function prepared(request: CopyableRequest, { reveal = false }: CopyOptions): Prepared {
  const method = request.method.toUpperCase();
  const url = reveal ? request.url : redactUrl(request.url);
  const headers = Object.entries(request.headers ?? {})
    .filter(([name]) => !CLIENT_HEADERS.has(name.toLowerCase()))
    .map(([name, value]): [string, string] => [
      name,
      !reveal && SECRET_HEADERS.has(name.toLowerCase()) ? maskCredential(value) : value,
    ]);
  const raw = request.body;
  if (raw === undefined || raw === null || raw === '') return { method, url, headers, body: null };
  if (typeof raw !== 'string') {
    const json = reveal ? raw : redactJson(raw);
    if (!headers.some(([name]) => name.toLowerCase() === 'content-type'))
      headers.push(['content-type', 'application/json']);
    return { method, url, headers, body: JSON.stringify(json), json };
  }
  const trimmed = raw.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      const json = reveal ? JSON.parse(raw) : redactJson(JSON.parse(raw));
      return { method, url, headers, body: reveal ? raw : JSON.stringify(json), json };
    } catch {
      // Not JSON after all: sent as it was.
    }
  }
  const form = /^[\w.%-]+=/.test(trimmed) && !trimmed.includes('\n');
  return { method, url, headers, body: form && !reveal ? redactForm(raw) : raw };
}
