/**
 * `login/client-auth/`: who is calling the token endpoint. `basic-auth.ts` reads the
 * Authorization header strictly, for the inspector; this file decides whether its credentials
 * name a registered client key with that secret (docs/contract/platform.md §5.2, RFC 6749 §2.3.1).
 *
 * Only HTTP Basic is accepted: credentials in the form are refused, and so is sending both.
 */
import type { RegisteredClient } from '../integrations/integrations.js';
import { InvalidClient, InvalidRequest } from '../oauth-error.js';
import type { Params } from '../params.js';
import { matchesHash } from '../secrets.js';
import type { BasicParse } from './basic-auth.js';

/**
 * The client the Basic header authenticates; throws the OAuthError that refuses it. Records on
 * `parsed.report` why well-formed credentials failed (unknown client, wrong secret).
 */
export function verifyClientCredentials(
  parsed: BasicParse,
  form: Params,
  findClient: (clientId: string) => RegisteredClient | undefined,
): RegisteredClient {
  if (!parsed.ok) {
    const why =
      form.has('client_secret') && !parsed.report.present
        ? 'client credentials in the form are not accepted: send them as HTTP Basic (docs/contract/platform.md §5.2)'
        : (parsed.report.problems[0] ?? 'client authentication failed');
    throw new InvalidClient(why);
  }
  const { clientId, clientSecret } = parsed.credentials;
  const client = findClient(clientId);
  if (!client) {
    parsed.report.verdict = 'unknown_client';
    throw new InvalidClient(`client_id ${JSON.stringify(clientId)} is not a registered client key`);
  }
  if (!matchesHash(clientSecret, client.key.secretHash)) {
    parsed.report.verdict = 'wrong_secret';
    // Not a word of the real secret: this goes to whoever knows a client_id. The console shows
    // its first characters on the integration card, to its own user.
    throw new InvalidClient(`the client secret does not match key "${client.key.name}"`);
  }
  if (form.has('client_secret')) {
    throw new InvalidRequest(
      'client credentials sent both in the Authorization header and in the form: use one method (RFC 6749 §2.3)',
    );
  }
  const formClientId = form.single('client_id');
  if (formClientId !== undefined && formClientId !== clientId) {
    throw new InvalidRequest('client_id in the form differs from the one in the Authorization header');
  }
  return client;
}
