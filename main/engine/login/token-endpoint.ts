/**
 * `POST /login/v3/oauth/access` (docs/contract/platform.md §4.1, docs/contract/console.md §2): both grants behind HTTP Basic client
 * authentication. Codes are single use and bound to client, redirect_uri and PKCE challenge; a
 * replayed code revokes its grant; a rotated refresh token presented again revokes its grant.
 * Every request, passed or failed, lands on the inspector's timeline with its decoded Basic header.
 */
import { CODE_LIFETIME_MS, OAUTH_SCOPE, type BasicHeaderReport, type FlowStepDetail } from '../api/oauth-types.js';
import { parseBasicHeader, type BasicParse } from './basic-auth.js';
import { Checklist } from './checklist.js';
import type { FlowRecorder, FlowStart } from './flow-recorder.js';
import type { IntegrationManager, RegisteredClient } from './integrations.js';
import type { IssuedTokens, Issuer } from './issuer.js';
import { OAuthError } from './oauth-error.js';
import { atomically, type AtomicStore } from './atomic.js';
import { Params } from './params.js';
import { isWellFormedVerifier, verifierMatches } from './pkce.js';
import { mask, sameHash, sha256 } from './secrets.js';
import type { Store } from '../store/store.js';
import type { AuthorizationCode } from '../store/repositories/authorization-codes.js';
import type { Grant } from '../store/repositories/grants.js';

export interface TokenRequest {
  authorization: string | undefined;
  /** The parsed form, or why there is none (wrong content type, oversized, unreadable). */
  form: Params | { problem: string };
}

export interface TokenAnswer {
  status: number;
  headers: Record<string, string>;
  body: object;
}

/** On every answer of the token endpoint (RFC 6749 §5.1), and of the login service's other JSON. */
export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
const SECRET_PARAMS = ['code', 'refresh_token', 'code_verifier', 'client_secret', 'password'];

const COMMON_CHECKS = {
  form: 'a form-urlencoded body, no parameter repeated',
  client: 'HTTP Basic client authentication (RFC 6749 §2.3.1)',
  grant_type: 'grant_type is authorization_code or refresh_token',
};
const CODE_CHECKS = {
  ...COMMON_CHECKS,
  code: 'code is known',
  code_unused: 'code was not used before',
  code_client: 'code was issued to this client',
  code_live: 'code has not expired (600 s)',
  redirect_uri: 'redirect_uri is the one of the authorization request',
  pkce: 'PKCE: code_verifier matches the code_challenge',
};
const REFRESH_CHECKS = {
  ...COMMON_CHECKS,
  refresh_token: 'refresh_token is known',
  refresh_client: 'refresh_token was issued to this client',
  refresh_live: 'refresh_token and its grant are live (not revoked, not expired)',
  refresh_unused: 'refresh_token was not already exchanged (rotation)',
  scope: `scope, if sent, is ${OAUTH_SCOPE}`,
};
type CheckId = keyof typeof CODE_CHECKS | keyof typeof REFRESH_CHECKS;

/** What one request learned on its way, for the inspector. */
interface Trace {
  checks: Checklist<CheckId>;
  basic: BasicHeaderReport;
  grantType: string | null;
  flowId: string | null;
  flowStart: FlowStart;
  issued?: IssuedTokens;
  /** The request revoked a grant (code replay, refresh token reuse). */
  revoked?: boolean;
}

type EndpointStore = Pick<Store, 'authorizationCodes' | 'grants' | 'tokens'> & AtomicStore;

interface Queued {
  request: TokenRequest;
  resolve(answer: TokenAnswer): void;
  reject(error: unknown): void;
}

export class TokenEndpoint {
  private readonly queue: Queued[] = [];

  constructor(
    private readonly store: EndpointStore,
    private readonly manager: IntegrationManager,
    private readonly issuer: Issuer,
    private readonly recorder: FlowRecorder,
  ) {}

  /**
   * Answers a token request once what it issued or revoked, and its inspector record, are
   * committed. Requests that arrive together share one commit (group commit: the commit is most
   * of a request's cost): they queue until the event loop turns, then run one after another in
   * one synchronous transaction, each in its own savepoint so a failure stays its own.
   */
  handle(request: TokenRequest): Promise<TokenAnswer> {
    return new Promise((resolve, reject) => {
      if (this.queue.push({ request, resolve, reject }) === 1) setImmediate(() => this.drain());
    });
  }

  private drain(): void {
    const batch = this.queue.splice(0);
    const outcomes: ({ ok: true; answer: TokenAnswer } | { ok: false; error: unknown })[] = [];
    try {
      atomically(this.store, () => {
        for (const { request } of batch) {
          try {
            outcomes.push({ ok: true, answer: this.store.transaction(() => this.answer(request)) });
          } catch (error) {
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) waiting.resolve(outcome.answer);
      else waiting.reject(outcome.error);
    });
  }

  private answer(request: TokenRequest): TokenAnswer {
    const form = request.form instanceof Params ? request.form : Params.empty();
    const basic = parseBasicHeader(request.authorization);
    const trace: Trace = {
      checks: new Checklist<CheckId>(COMMON_CHECKS),
      basic: basic.report,
      grantType: form.single('grant_type') ?? null,
      flowId: null,
      flowStart: { origin: 'external' },
    };
    if (trace.grantType === 'authorization_code') trace.checks = new Checklist<CheckId>(CODE_CHECKS);
    if (trace.grantType === 'refresh_token') trace.checks = new Checklist<CheckId>(REFRESH_CHECKS);
    try {
      const issued = this.run(request, basic, form, trace);
      trace.issued = issued;
      this.record(trace, form, 200);
      return {
        status: 200,
        headers: NO_STORE,
        body: { access_token: issued.accessToken, token_type: 'Bearer', expires_in: issued.expiresIn, refresh_token: issued.refreshToken, scope: issued.scope },
      };
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      this.record(trace, form, error.status, error);
      const headers: Record<string, string> = { ...NO_STORE };
      if (error.status === 401) headers['www-authenticate'] = 'Basic realm="login"';
      return { status: error.status, headers, body: error.toBody() };
    }
  }

  private run(request: TokenRequest, basic: BasicParse, form: Params, trace: Trace): IssuedTokens {
    const { checks } = trace;
    if (!(request.form instanceof Params)) throw fail(checks, 'form', 'invalid_request', request.form.problem);
    const repeated = form.repeated();
    if (repeated.length > 0) throw fail(checks, 'form', 'invalid_request', `${repeated.join(', ')} repeated: each parameter must be sent once`);
    checks.pass('form');

    const client = this.authenticate(basic, form, trace);
    trace.flowStart = { origin: 'external', integrationId: client.integration.id, integrationName: client.integration.name, clientId: client.key.clientId };

    const grantType = form.single('grant_type');
    if (grantType === undefined) throw fail(checks, 'grant_type', 'invalid_request', 'grant_type is missing');
    if (grantType === 'authorization_code') {
      checks.pass('grant_type', grantType);
      return this.exchangeCode(client, form, trace);
    }
    if (grantType === 'refresh_token') {
      checks.pass('grant_type', grantType);
      return this.refresh(client, form, trace);
    }
    throw fail(checks, 'grant_type', 'unsupported_grant_type', `grant_type ${JSON.stringify(grantType)} is not supported: use authorization_code or refresh_token`);
  }

  private authenticate(parsed: BasicParse, form: Params, trace: Trace): RegisteredClient {
    if (!parsed.ok) {
      const why = form.has('client_secret') && !parsed.report.present
        ? 'client credentials in the form are not accepted: send them as HTTP Basic (docs/contract/platform.md §5.2)'
        : parsed.report.problems[0] ?? 'client authentication failed';
      throw fail(trace.checks, 'client', 'invalid_client', why);
    }
    const { clientId, clientSecret } = parsed.credentials;
    const client = this.manager.findClient(clientId);
    if (!client) {
      trace.basic.verdict = 'unknown_client';
      throw fail(trace.checks, 'client', 'invalid_client', `client_id ${JSON.stringify(clientId)} is not a registered client key`);
    }
    if (!sameHash(sha256(clientSecret), client.key.secretHash)) {
      trace.basic.verdict = 'wrong_secret';
      // Not a word of the real secret: this goes to whoever knows a client_id. The console shows
      // its first characters on the integration card, to its own user.
      throw fail(trace.checks, 'client', 'invalid_client', `the client secret does not match key "${client.key.name}"`);
    }
    if (form.has('client_secret')) {
      throw fail(trace.checks, 'client', 'invalid_request', 'client credentials sent both in the Authorization header and in the form: use one method (RFC 6749 §2.3)');
    }
    const formClientId = form.single('client_id');
    if (formClientId !== undefined && formClientId !== clientId) {
      throw fail(trace.checks, 'client', 'invalid_request', 'client_id in the form differs from the one in the Authorization header');
    }
    trace.checks.pass('client', `${client.integration.name} (key "${client.key.name}")`);
    return client;
  }

  private exchangeCode(client: RegisteredClient, form: Params, trace: Trace): IssuedTokens {
    const { checks } = trace;
    const code = form.single('code');
    if (code === undefined) throw fail(checks, 'code', 'invalid_request', 'code is missing');
    const codeHash = sha256(code);
    const record = this.store.authorizationCodes.findByHash(codeHash);
    if (!record) throw fail(checks, 'code', 'invalid_grant', 'the code is unknown: never issued, or mistyped');
    checks.pass('code');
    const grant = this.store.grants.get(record.grantId);
    trace.flowId = grant?.flowId ?? null;

    const replayed = (): OAuthError => {
      const revoked = this.issuer.revokeGrant(record.grantId, 'authorization code used twice');
      trace.revoked = true;
      return fail(checks, 'code_unused', 'invalid_grant', `the code was already used: ${revoked} token${revoked === 1 ? '' : 's'} issued from it ${revoked === 1 ? 'is' : 'are'} now revoked (RFC 6749 §4.1.2)`);
    };
    if (record.usedAt !== null) throw replayed();
    checks.pass('code_unused');
    if (record.keyId !== client.key.id) throw fail(checks, 'code_client', 'invalid_grant', 'the code was issued to another client');
    checks.pass('code_client');
    const now = this.issuer.now();
    const death = codeDeath(record, grant, now);
    if (death === 'expired') throw fail(checks, 'code_live', 'invalid_grant', `the code expired ${Math.round((now - record.expiresAt) / 1000)} s ago (codes live ${CODE_LIFETIME_MS / 1000} s)`);
    if (death === 'revoked' || !grant) throw fail(checks, 'code_live', 'invalid_grant', 'the grant of this code was revoked');
    checks.pass('code_live');

    const redirectUri = form.single('redirect_uri');
    if (redirectUri === undefined) throw fail(checks, 'redirect_uri', 'invalid_request', 'redirect_uri is missing');
    if (redirectUri !== record.redirectUri) {
      throw fail(checks, 'redirect_uri', 'invalid_grant', `redirect_uri ${JSON.stringify(redirectUri)} is not the one of the authorization request (${JSON.stringify(record.redirectUri)})`);
    }
    checks.pass('redirect_uri');

    const verifier = form.single('code_verifier');
    if (record.codeChallenge !== null) {
      if (verifier === undefined) throw fail(checks, 'pkce', 'invalid_grant', 'the authorization request used PKCE: code_verifier is missing');
      if (!isWellFormedVerifier(verifier)) throw fail(checks, 'pkce', 'invalid_grant', 'code_verifier must be 43 to 128 unreserved characters (RFC 7636 §4.1)');
      if (!verifierMatches(record.codeChallenge, verifier)) throw fail(checks, 'pkce', 'invalid_grant', 'code_verifier does not match the code_challenge (S256)');
      checks.pass('pkce', 'S256');
    } else if (verifier !== undefined) {
      throw fail(checks, 'pkce', 'invalid_grant', 'code_verifier sent, but the authorization request had no code_challenge');
    } else checks.skip('pkce', 'no PKCE');

    // Two exchanges racing for one code: only one spends it, the other is a replay.
    if (!this.store.authorizationCodes.markUsed(codeHash, now)) throw replayed();
    const issued = this.issuer.issueTokens(grant.id, grant.scope, { parentId: null });
    this.issuer.changed();
    return issued;
  }

  private refresh(client: RegisteredClient, form: Params, trace: Trace): IssuedTokens {
    const { checks } = trace;
    const presented = form.single('refresh_token');
    if (presented === undefined) throw fail(checks, 'refresh_token', 'invalid_request', 'refresh_token is missing');
    const token = this.store.tokens.findByHash(sha256(presented));
    if (!token) throw fail(checks, 'refresh_token', 'invalid_grant', 'the refresh token is unknown');
    trace.flowId = token.flowId;
    if (token.kind !== 'refresh') throw fail(checks, 'refresh_token', 'invalid_grant', 'that is an access token, not a refresh token');
    checks.pass('refresh_token');
    if (token.clientId !== client.key.clientId) throw fail(checks, 'refresh_client', 'invalid_grant', 'the refresh token was issued to another client');
    checks.pass('refresh_client');
    if (token.grantRevokedAt !== null) throw fail(checks, 'refresh_live', 'invalid_grant', 'the grant of this refresh token was revoked');
    if (token.revokedAt !== null) throw fail(checks, 'refresh_live', 'invalid_grant', `the refresh token was revoked (${token.revokedReason ?? 'no reason given'})`);
    const now = this.issuer.now();
    if (token.expiresAt !== null && token.expiresAt <= now) throw fail(checks, 'refresh_live', 'invalid_grant', 'the refresh token expired');
    checks.pass('refresh_live');

    const reused = (): OAuthError => {
      const revoked = this.issuer.revokeGrant(token.grantId, 'rotated refresh token used again');
      trace.revoked = true;
      return fail(checks, 'refresh_unused', 'invalid_grant', `refresh token reuse: it was already exchanged for a new one, so the whole grant is revoked (${revoked} token${revoked === 1 ? '' : 's'})`);
    };
    if (token.rotatedAt !== null) throw reused();
    checks.pass('refresh_unused', client.integration.rotateRefreshTokens ? 'rotation on' : 'rotation off: the refresh token stays valid');

    const scope = form.single('scope');
    if (form.has('scope') && (scope === undefined || scope.split(' ').some((s) => s !== '' && s !== OAUTH_SCOPE))) {
      throw fail(checks, 'scope', 'invalid_scope', `scope may only be ${OAUTH_SCOPE} (the scope of the grant)`);
    }
    checks.pass('scope');

    const rotate = client.integration.rotateRefreshTokens;
    if (rotate && !this.store.tokens.markRotated(token.id, now)) throw reused();
    const issued = this.issuer.issueTokens(token.grantId, token.scope, rotate ? { parentId: token.id } : { keep: presented });
    this.issuer.changed();
    return issued;
  }

  private record(trace: Trace, form: Params, status: number, error?: OAuthError): void {
    const grantType = trace.grantType;
    const detail: FlowStepDetail = {
      kind: 'token',
      grantType,
      basic: trace.basic,
      params: form.toRecord(SECRET_PARAMS, mask),
      checks: trace.checks.list(),
      status,
      ...(error ? { error: error.toView() } : {}),
      ...(trace.issued
        ? {
            issued: {
              accessToken: mask(trace.issued.accessToken),
              refreshToken: mask(trace.issued.refreshToken),
              expiresIn: trace.issued.expiresIn,
              scope: trace.issued.scope,
              rotated: trace.issued.rotated,
            },
          }
        : {}),
    };
    const what = grantType === 'refresh_token' ? 'refresh' : grantType === 'authorization_code' ? 'code exchange' : 'token request';
    const summary = error ? `${what} failed: ${error.error} (${error.description})` : grantType === 'refresh_token' ? 'refresh: new access token issued' : 'code exchanged for tokens';
    // Refused before its code or refresh token was read (a wrong secret): it still belongs to
    // the flow that code or token came from, not to a flow of its own.
    trace.flowId ??= this.flowOfPresented(grantType, form);
    // A failed code exchange fails the flow when its code has died unused (expired, its grant
    // revoked). A try the code survives (a wrong secret, a missing verifier) is a failed step of
    // a flow still waiting for its exchange; a spent code's flow has ended already (tokens issued,
    // or revoked by a replay) and stays as it ended. Any failure that belongs to no known flow
    // fails the flow it opens.
    const newFlow = !this.recorder.exists(trace.flowId);
    const failsFlow = () => !trace.revoked && (newFlow || (grantType === 'authorization_code' && this.diedUnused(form.single('code'))));
    const flowStatus = !error ? 'tokens_issued' : failsFlow() ? 'failed' : undefined;
    this.recorder.step(trace.flowId, { ok: !error, summary, detail, ...(flowStatus ? { status: flowStatus } : {}) }, newFlow ? this.flowStartOf(trace) : undefined);
  }

  /** Whether `code`, issued here and never traded, can no longer be (see `codeDeath`). */
  private diedUnused(code: string | undefined): boolean {
    const record = code === undefined ? undefined : this.store.authorizationCodes.findByHash(sha256(code));
    return record !== undefined && record.usedAt === null && codeDeath(record, this.store.grants.get(record.grantId), this.issuer.now()) !== null;
  }

  /** The flow of the code or refresh token a request presented, if the console issued it. */
  private flowOfPresented(grantType: string | null, form: Params): string | null {
    if (grantType === 'authorization_code') {
      const code = form.single('code');
      const record = code === undefined ? undefined : this.store.authorizationCodes.findByHash(sha256(code));
      return (record && this.store.grants.get(record.grantId)?.flowId) ?? null;
    }
    if (grantType === 'refresh_token') {
      const presented = form.single('refresh_token');
      return (presented !== undefined && this.store.tokens.findByHash(sha256(presented))?.flowId) || null;
    }
    return null;
  }

  /** A request that belongs to no flow opens its own, named after the client it claimed to be. */
  private flowStartOf(trace: Trace): FlowStart {
    if (trace.flowStart.clientId || !trace.basic.clientId) return trace.flowStart;
    const client = this.manager.findClient(trace.basic.clientId);
    return client
      ? { origin: 'external', integrationId: client.integration.id, integrationName: client.integration.name, clientId: client.key.clientId }
      : { origin: 'external', clientId: trace.basic.clientId };
  }
}

/** Why a code can no longer be traded whatever is presented with it, or null while it can. */
function codeDeath(record: AuthorizationCode, grant: Grant | undefined, now: number): 'expired' | 'revoked' | null {
  if (record.expiresAt <= now) return 'expired';
  return !grant || grant.revokedAt !== null ? 'revoked' : null;
}

function fail(checks: Checklist<CheckId>, id: CheckId, code: ConstructorParameters<typeof OAuthError>[0], description: string): OAuthError {
  checks.fail(id, description);
  return new OAuthError(code, description);
}
