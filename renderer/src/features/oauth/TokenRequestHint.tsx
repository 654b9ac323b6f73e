/**
 * Under a flow whose code went to the app's own redirect URI: the token request the app makes
 * next, ready to run, and how long the code has left.
 */
import { CODE_LIFETIME_MS } from '@engine-api/oauth-types';
import { CopyButton } from '../../components/CopyButton';
import { useEngineNow } from '../../stores/clock';
import { formatLifetime } from '../../format/span';
import { APP_VERIFIER, tokenRequestCurl, type TokenRequest } from './token-request';
import styles from './TokenRequestHint.module.css';

export function TokenRequestHint({ request }: { request: TokenRequest }) {
  const now = useEngineNow();
  const expiresAt = request.issuedAt + CODE_LIFETIME_MS;
  if (now !== null && now >= expiresAt) {
    return (
      <p className={`${styles.tokenRequest} muted`} role="group" aria-label="Token request">
        The code expired unused {formatLifetime(now - expiresAt)} ago (codes live {formatLifetime(CODE_LIFETIME_MS)}):
        start a new flow.
      </p>
    );
  }
  if (request.verifierLost) {
    return (
      <p className={`${styles.tokenRequest} muted`} role="group" aria-label="Token request">
        This flow's PKCE code_verifier was made by this console window and kept in its memory, which a reload cleared:
        without it the code cannot be traded. Start a new flow.
      </p>
    );
  }
  const curl = tokenRequestCurl(request);
  const wants = [
    'CODE to the code= of the redirect',
    'CLIENT_SECRET to the key’s secret (shown once, when it was made)',
  ];
  if (request.codeVerifier === APP_VERIFIER) wants.push('CODE_VERIFIER to the app’s PKCE verifier');
  const left =
    now === null
      ? `within ${formatLifetime(CODE_LIFETIME_MS)} of its issue`
      : `within the ${formatLifetime(expiresAt - now)} it has left`;
  return (
    <div className={styles.tokenRequest} role="group" aria-label="Token request">
      <p>
        Next the app trades the code for tokens, once, {left}; as curl for a POSIX shell:{' '}
        <CopyButton value={curl} label="Copy token request" />
      </p>
      <pre>{curl}</pre>
      <p className="muted">Set {wants.join(', ')}. A failed try leaves the code unused.</p>
    </div>
  );
}
