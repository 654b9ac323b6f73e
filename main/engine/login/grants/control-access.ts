/**
 * The control API's side of the login service (docs/contract/platform.md §5, docs/contract/console.md §3): which bearer values are
 * live access tokens, and each call made with one as a step of its token's flow. The control API
 * only sees these two functions.
 */
import type { AccessTokenVerifier, BearerCallObserver } from '../../control/access.js';
import type { FlowRecorder } from '../inspector/flow-recorder.js';
import { clip } from '../params.js';
import { mask } from '../secrets.js';
import type { Issuer } from './issuer.js';

export function accessTokenVerifier(issuer: Issuer): AccessTokenVerifier {
  return (bearer) => {
    const found = issuer.lookupAccess(bearer);
    if (!found?.live) return null;
    return { householdId: found.token.householdId, scope: found.token.scope, clientId: found.token.clientId };
  };
}

export function bearerCallObserver(issuer: Issuer, recorder: FlowRecorder): BearerCallObserver {
  return (bearer, call) => {
    const found = issuer.lookupAccess(bearer);
    // A value that was never issued belongs to no flow.
    if (!found) return;
    const accepted = call.status !== 401;
    const reason = found.reason ?? (accepted ? undefined : 'refused');
    recorder.step(found.token.flowId, {
      ok: accepted && call.status < 400,
      summary: `API call ${call.method} ${clip(call.path, 200)} → ${call.status}${accepted ? '' : ` (token ${reason})`}`,
      detail: {
        kind: 'api_call',
        method: call.method,
        path: clip(call.path, 512),
        status: call.status,
        token: mask(bearer),
        accepted,
        ...(reason ? { reason } : {}),
      },
    });
  };
}
