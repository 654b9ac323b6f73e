/**
 * The checks every grant's checklist begins with (RFC 6749 §3.2, §2.3.1, docs/contract/platform.md
 * §5.2): a readable form with no parameter repeated, the client authenticated by HTTP Basic, and
 * a grant_type this service grants.
 */
import { verifyClientCredentials } from '../client-auth/client-auth.js';
import { InvalidRequest, UnsupportedGrantType } from '../oauth-error.js';
import type { Step, TokenExchange, Verdict } from './grant.js';

export const TOKEN_REQUEST_STEPS: readonly Step<TokenExchange>[] = [
  { check: 'form', label: 'a form-urlencoded body, no parameter repeated', run: readForm },
  { check: 'client', label: 'HTTP Basic client authentication (RFC 6749 §2.3.1)', run: authenticateClient },
  { check: 'grant_type', label: 'grant_type is authorization_code or refresh_token', run: chooseGrant },
];

function readForm({ unreadable, form }: TokenExchange): Verdict {
  if (unreadable !== null) throw new InvalidRequest(unreadable);
  const repeated = form.repeated();
  if (repeated.length > 0)
    throw new InvalidRequest(`${repeated.join(', ')} repeated: each parameter must be sent once`);
  return undefined;
}

function authenticateClient(exchange: TokenExchange): Verdict {
  const client = verifyClientCredentials(exchange.basic, exchange.form, (clientId) =>
    exchange.manager.findClient(clientId),
  );
  exchange.client = client;
  exchange.trace.flowStart = {
    origin: 'external',
    integrationId: client.integration.id,
    integrationName: client.integration.name,
    clientId: client.key.clientId,
  };
  return `${client.integration.name} (key "${client.key.name}")`;
}

/** The checklist running is the one grant_type named; without one, this is where it is refused. */
function chooseGrant({ form, grantType }: TokenExchange): Verdict {
  const named = form.single('grant_type');
  if (named === undefined) throw new InvalidRequest('grant_type is missing');
  if (named !== grantType)
    throw new UnsupportedGrantType(
      `grant_type ${JSON.stringify(named)} is not supported: use authorization_code or refresh_token`,
    );
  return named;
}
