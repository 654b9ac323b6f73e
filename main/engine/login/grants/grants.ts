/**
 * `login/grants/`: what the token endpoint grants, and what a grant issues. Each grant is one
 * checklist of small verb-named steps run in order (`grant.ts` says how one is written):
 * `authorization-code.ts` and `refresh-token.ts`, both opening with the checks of every token
 * request (`token-request.ts`). `issuer.ts` issues codes and tokens and takes them back;
 * `control-access.ts` is the control API's side of the access tokens it issued.
 *
 * This file: which grant a token request's grant_type names.
 */
import { AUTHORIZATION_CODE_GRANT } from './authorization-code.js';
import { labelsOf, runSteps, type Grant } from './grant.js';
import { REFRESH_TOKEN_GRANT } from './refresh-token.js';
import { TOKEN_REQUEST_STEPS } from './token-request.js';

// A Map, not an object: a grant_type like `constructor` names nothing.
const GRANTS = new Map<string, Grant>([
  ['authorization_code', AUTHORIZATION_CODE_GRANT],
  ['refresh_token', REFRESH_TOKEN_GRANT],
]);

/** A request whose grant_type names no grant: its checklist ends at `chooseGrant`, which refuses it. */
const NO_GRANT: Grant = {
  grantType: null,
  labels: labelsOf(TOKEN_REQUEST_STEPS),
  exchange: (exchange) => {
    runSteps(TOKEN_REQUEST_STEPS, exchange);
    throw new Error('chooseGrant refuses every grant_type no grant answers to');
  },
};

/** The grant `grantType` (as sent, once) names; its checklist is the one the request is shown with. */
export function grantNamed(grantType: string | undefined): Grant {
  return (grantType !== undefined && GRANTS.get(grantType)) || NO_GRANT;
}
