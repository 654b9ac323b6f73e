/**
 * `POST /login/v3/oauth/access` (docs/contract/platform.md §4.1, docs/contract/console.md §2): the
 * token endpoint's HTTP side. The grants themselves are checklists in `grants/`; this file reads
 * the request, runs the checklist of the grant its grant_type names, commits requests that arrive
 * together in one transaction, and puts every request, passed or failed, on the inspector's
 * timeline with its decoded Basic header.
 */
import type { FlowStepDetail } from '../../api/oauth-types.js';
import { NO_STORE } from '../../http/no-store.js';
import type { Store } from '../../store/store.js';
import { atomically, type AtomicStore } from '../atomic.js';
import { parseBasicHeader } from '../client-auth/basic-auth.js';
import { codeDeath } from '../grants/authorization-code.js';
import type { TokenTrace } from '../grants/grant.js';
import { grantNamed } from '../grants/grants.js';
import type { Issuer } from '../grants/issuer.js';
import { Checklist } from '../inspector/checklist.js';
import type { FlowRecorder, FlowStart } from '../inspector/flow-recorder.js';
import { formBody } from '../inspector/step-masking.js';
import type { IntegrationManager } from '../integrations/integrations.js';
import { OAuthError } from '../oauth-error.js';
import { Params } from '../params.js';
import { isSecretParam, mask, maskSecret, sha256 } from '../secrets.js';

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
    const grantType = form.single('grant_type');
    const grant = grantNamed(grantType);
    const trace: TokenTrace = {
      checks: new Checklist<string>(grant.labels),
      basic: basic.report,
      grantType: grantType ?? null,
      flowId: null,
      flowStart: { origin: 'external' },
    };
    try {
      const issued = grant.exchange({
        form,
        unreadable: request.form instanceof Params ? null : request.form.problem,
        basic,
        grantType: grant.grantType,
        client: null,
        trace,
        store: this.store,
        manager: this.manager,
        issuer: this.issuer,
      });
      trace.issued = issued;
      this.record(trace, form, 200);
      return {
        status: 200,
        headers: NO_STORE,
        body: {
          access_token: issued.accessToken,
          token_type: 'Bearer',
          expires_in: issued.expiresIn,
          refresh_token: issued.refreshToken,
          scope: issued.scope,
        },
      };
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      this.record(trace, form, error.status, error);
      const headers: Record<string, string> = { ...NO_STORE };
      if (error.status === 401) headers['www-authenticate'] = 'Basic realm="login"';
      return { status: error.status, headers, body: error.toBody() };
    }
  }

  private record(trace: TokenTrace, form: Params, status: number, error?: OAuthError): void {
    const grantType = trace.grantType;
    const requestBody = formBody(form);
    const detail: FlowStepDetail = {
      kind: 'token',
      grantType,
      basic: trace.basic,
      params: form.toRecord(isSecretParam, maskSecret),
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
              ...(trace.issued.reusedWithinGrace ? { reusedWithinGrace: true as const } : {}),
            },
          }
        : {}),
      ...(requestBody ? { requestBody } : {}),
    };
    const what =
      grantType === 'refresh_token'
        ? 'refresh'
        : grantType === 'authorization_code'
          ? 'code exchange'
          : 'token request';
    const refreshed = trace.issued?.reusedWithinGrace
      ? 'refresh: reused within grace, new access token issued with the current refresh token'
      : 'refresh: new access token issued';
    const summary = error
      ? `${what} failed: ${error.error} (${error.description})`
      : grantType === 'refresh_token'
        ? refreshed
        : 'code exchanged for tokens';
    // Refused before its code or refresh token was read (a wrong secret): it still belongs to
    // the flow that code or token came from, not to a flow of its own.
    trace.flowId ??= this.flowOfPresented(grantType, form);
    // A failed code exchange fails the flow when its code has died unused (expired, its grant
    // revoked). A try the code survives (a wrong secret, a missing verifier) is a failed step of
    // a flow still waiting for its exchange; a spent code's flow has ended already (tokens issued,
    // or revoked by a replay) and stays as it ended. Any failure that belongs to no known flow
    // fails the flow it opens.
    const newFlow = !this.recorder.exists(trace.flowId);
    const failsFlow = () =>
      !trace.revoked && (newFlow || (grantType === 'authorization_code' && this.diedUnused(form.single('code'))));
    const flowStatus = !error ? 'tokens_issued' : failsFlow() ? 'failed' : undefined;
    this.recorder.step(
      trace.flowId,
      { ok: !error, summary, detail, ...(flowStatus ? { status: flowStatus } : {}) },
      newFlow ? this.flowStartOf(trace) : undefined,
    );
  }

  /** Whether `code`, issued here and never traded, can no longer be (see `codeDeath`). */
  private diedUnused(code: string | undefined): boolean {
    const record = code === undefined ? undefined : this.store.authorizationCodes.findByHash(sha256(code));
    return (
      record !== undefined &&
      record.usedAt === null &&
      codeDeath(record, this.store.grants.get(record.grantId), this.issuer.now()) !== null
    );
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
  private flowStartOf(trace: TokenTrace): FlowStart {
    if (trace.flowStart.clientId || !trace.basic.clientId) return trace.flowStart;
    const client = this.manager.findClient(trace.basic.clientId);
    return client
      ? {
          origin: 'external',
          integrationId: client.integration.id,
          integrationName: client.integration.name,
          clientId: client.key.clientId,
        }
      : { origin: 'external', clientId: trace.basic.clientId };
  }
}
