import { Placeholder } from '../../components/Placeholder';

export function OAuthPage() {
  return (
    <Placeholder title="OAuth">
      <p>The login service and its tools come here: the integration manager (client keys, redirect URLs), the authorization and token endpoints, grants and tokens with their expiry on the engine clock, and the OAuth flow inspector that lays every step of a flow on one timeline.</p>
    </Placeholder>
  );
}
