/**
 * OAuth errors as values (RFC 6749 §4.1.2.1, §5.2): one class, the error code, a description for
 * the developer, and the HTTP status the token endpoint answers with (docs/contract/console.md §2).
 */
import type { OAuthErrorView } from '../api/oauth-types.js';

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unsupported_response_type'
  | 'access_denied'
  | 'server_error'
  | 'temporarily_unavailable';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(`${error}: ${description}`);
    this.name = 'OAuthError';
  }

  /** 401 for a client that failed to authenticate, 400 for everything else (RFC 6749 §5.2). */
  get status(): 400 | 401 {
    return this.error === 'invalid_client' ? 401 : 400;
  }

  toView(): OAuthErrorView {
    return { error: this.error, description: this.description };
  }

  toBody(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

/**
 * `redirectUri` with `params` appended to its query, leaving the URI's own query byte for byte
 * as registered (re-serialising it through URL would re-encode it).
 */
export function withQuery(redirectUri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.append(key, value);
  const added = query.toString();
  if (!redirectUri.includes('?')) return `${redirectUri}?${added}`;
  if (redirectUri.endsWith('?') || redirectUri.endsWith('&')) return `${redirectUri}${added}`;
  return `${redirectUri}&${added}`;
}
