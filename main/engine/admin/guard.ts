/**
 * The admin API's three gates (docs/contract/console.md §7), in order: a loopback Host header (else 403, against
 * DNS rebinding), no cross-site Origin (else 403), and the bearer admin token (else 401).
 */
import { hostnameOfHostHeader, isLoopbackHostname } from '../http/loopback.js';
import { sameSecret } from '../security/secrets.js';

export type GuardVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string };

export interface GuardRequest {
  host: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
}

/** Host and Origin checks: the console's own pages pass these too. */
export function checkHostAndOrigin(
  request: Pick<GuardRequest, 'host' | 'origin'>,
  consolePort: () => number,
): GuardVerdict {
  if (!request.host || !isLoopbackHostname(hostnameOfHostHeader(request.host))) {
    return { ok: false, status: 403, message: 'the console answers only loopback Host names' };
  }
  if (request.origin !== undefined && !isOwnOrigin(request.origin, consolePort())) {
    return { ok: false, status: 403, message: 'cross-site requests are refused' };
  }
  return { ok: true };
}

export function checkAdminRequest(request: GuardRequest, adminToken: string, consolePort: () => number): GuardVerdict {
  const site = checkHostAndOrigin(request, consolePort);
  if (!site.ok) return site;
  const presented = /^Bearer (.+)$/i.exec(request.authorization ?? '')?.[1]?.trim();
  if (!presented || !sameSecret(presented, adminToken)) {
    return { ok: false, status: 401, message: 'the admin API needs Authorization: Bearer <adminToken>' };
  }
  return { ok: true };
}

function isOwnOrigin(origin: string, port: number): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && isLoopbackHostname(url.hostname) && Number(url.port || 80) === port;
  } catch {
    return false; // "null" and garbage alike
  }
}
