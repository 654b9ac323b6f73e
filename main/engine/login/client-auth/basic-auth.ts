/**
 * The token endpoint's client authentication header (docs/contract/platform.md §5.2, RFC 6749 §2.3.1): `Basic` and the
 * Base64 of `client_id:client_secret`, each form-urlencoded before encoding. Reads the header
 * strictly and says exactly what was wrong with it, for the flow inspector.
 */
import type { BasicHeaderReport } from '../../api/oauth-types.js';
import { clip } from '../params.js';
import { mask } from '../secrets.js';

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

export type BasicParse =
  { ok: true; credentials: ClientCredentials; report: BasicHeaderReport } | { ok: false; report: BasicHeaderReport };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function parseBasicHeader(header: string | undefined): BasicParse {
  const report: BasicHeaderReport = {
    present: false,
    scheme: null,
    clientId: null,
    secret: null,
    problems: [],
    verdict: 'missing',
  };
  if (header === undefined || header.trim() === '') {
    report.problems.push('no Authorization header: send Basic base64(client_id:client_secret)');
    return { ok: false, report };
  }
  report.present = true;
  const malformed = (problem: string): BasicParse => {
    report.problems.push(problem);
    report.verdict = 'malformed';
    return { ok: false, report };
  };

  const match = /^(\S+)(?:\s+(.*))?$/s.exec(header.trim());
  report.scheme = clip(match?.[1] ?? '', 32);
  if (!match || match[1]!.toLowerCase() !== 'basic') return malformed(`the scheme is "${report.scheme}", not Basic`);
  const encoded = (match[2] ?? '').trim();
  if (encoded === '') return malformed('Basic without credentials');
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) return malformed('the credentials are not valid Base64');

  let decoded: string;
  try {
    decoded = utf8.decode(Buffer.from(encoded, 'base64'));
  } catch {
    return malformed('the decoded credentials are not UTF-8 text');
  }
  const colon = decoded.indexOf(':');
  if (colon === -1) return malformed('no colon between client id and secret in the decoded credentials');

  const rawId = decoded.slice(0, colon);
  const rawSecret = decoded.slice(colon + 1);
  const clientId = formDecode(rawId);
  const clientSecret = formDecode(rawSecret);
  report.clientId = clip(clientId ?? rawId, 200);
  report.secret = mask(clientSecret ?? rawSecret);
  if (clientId === null) return malformed('the client id is not form-urlencoded correctly (RFC 6749 §2.3.1)');
  if (clientSecret === null) return malformed('the client secret is not form-urlencoded correctly (RFC 6749 §2.3.1)');
  if (clientId === '') return malformed('the client id is empty');
  if (clientSecret === '') return malformed('the client secret is empty');
  if (rawSecret.includes('+') || rawId.includes('+')) {
    report.problems.push('a "+" in the credentials decodes to a space (form-urlencoding): encode a literal "+" as %2B');
  }
  report.verdict = 'ok';
  return { ok: true, credentials: { clientId, clientSecret }, report };
}

/** application/x-www-form-urlencoded decoding of one value; null when a %-escape is broken. */
export function formDecode(value: string): string | null {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** How a client builds the header (what the sample integration and the tests send). */
export function basicHeader(clientId: string, clientSecret: string): string {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`, 'utf8').toString('base64')}`;
}
