/**
 * OAuth errors as values (RFC 6749 §4.1.2.1, §5.2): one class per error code, each carrying a
 * description for the developer and the HTTP status the token endpoint answers with
 * (docs/contract/console.md §2). Every OAuth error the login service answers is built here.
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

/** A parameter is missing, repeated or malformed, or the request cannot be read. */
export class InvalidRequest extends OAuthError {
  constructor(description: string) {
    super('invalid_request', description);
  }
}

/** Client authentication failed (answered 401 with a Basic challenge). */
export class InvalidClient extends OAuthError {
  constructor(description: string) {
    super('invalid_client', description);
  }
}

/** The code or refresh token is unknown, spent, expired, revoked or someone else's. */
export class InvalidGrant extends OAuthError {
  constructor(description: string) {
    super('invalid_grant', description);
  }
}

/** The client may not use this grant. */
export class UnauthorizedClient extends OAuthError {
  constructor(description: string) {
    super('unauthorized_client', description);
  }
}

export class UnsupportedGrantType extends OAuthError {
  constructor(description: string) {
    super('unsupported_grant_type', description);
  }
}

export class InvalidScope extends OAuthError {
  constructor(description: string) {
    super('invalid_scope', description);
  }
}

export class UnsupportedResponseType extends OAuthError {
  constructor(description: string) {
    super('unsupported_response_type', description);
  }
}

/** The user denied, or could not sign in. */
export class AccessDenied extends OAuthError {
  constructor(description: string) {
    super('access_denied', description);
  }
}

export class ServerError extends OAuthError {
  constructor(description: string) {
    super('server_error', description);
  }
}

export class TemporarilyUnavailable extends OAuthError {
  constructor(description: string) {
    super('temporarily_unavailable', description);
  }
}
