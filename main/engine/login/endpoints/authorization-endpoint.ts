/**
 * `GET /login/v3/oauth` and the pages that follow it (docs/contract/platform.md §4.1, docs/contract/console.md §2): the authorization
 * request, the sign-in page, the consent page and the final redirect with `code` and `state` (or
 * `error`). With auto-approve on, sign-in and consent are skipped. Each step lands on the flow's
 * timeline. Answers are plain values; `app.ts` writes them to HTTP.
 */
import type { FlowRequestBody, FlowStatus, FlowStepDetail, OAuthErrorView } from '../../api/oauth-types.js';
import { DEMO_USER } from '../../household/seed.js';
import type { User } from '../../store/repositories/users.js';
import type { Store } from '../../store/store.js';
import { atomically, type AtomicStore } from '../atomic.js';
import type { FlowStarts } from '../console/flow-starts.js';
import type { RedirectCapture } from '../console/redirect-capture.js';
import type { Issuer } from '../grants/issuer.js';
import type { FlowRecorder } from '../inspector/flow-recorder.js';
import { formBody } from '../inspector/step-masking.js';
import type { IntegrationManager } from '../integrations/integrations.js';
import { AccessDenied, ServerError } from '../oauth-error.js';
import { Params, clip, withQuery } from '../params.js';
import { CONSENT_PATH } from '../paths.js';
import { isSecretParam, mask, maskSecret, maskSecretParams, passwordMatches } from '../secrets.js';
import type { LoginSettingsStore } from '../settings.js';
import { checkAuthorizationRequest, type AuthorizationRequest } from './authorize.js';
import { MAX_FAILED_SIGN_INS, type Interaction, type Interactions } from './interactions.js';
import { consentPage, errorPage, pageHeaders, signInPage } from './pages.js';
import { PasswordChecksBusy, type PasswordChecker } from '../../security/passwords.js';
import type { SignInThrottle } from './sign-in-throttle.js';

export interface PageAnswer {
  status: number;
  headers: Record<string, string>;
  body?: string;
  cookies?: string[];
}

export interface AuthorizationEndpointDeps {
  store: Pick<Store, 'users' | 'households'> & AtomicStore;
  manager: IntegrationManager;
  settings: LoginSettingsStore;
  issuer: Issuer;
  recorder: FlowRecorder;
  interactions: Interactions;
  throttle: SignInThrottle;
  /** Checks passwords off the engine's thread, a few at a time across all sign-ins. */
  passwords: PasswordChecker;
  starts: FlowStarts;
  /** Keeps redirects that would leave this machine (`captureRedirects`); absent: every redirect goes out. */
  capture?: RedirectCapture;
}

export class AuthorizationEndpoint {
  constructor(private readonly deps: AuthorizationEndpointDeps) {}

  /**
   * The authorization request; what it records and issues is stored in one commit. `injected` is
   * a 500/503 failure injection asks for: it becomes an error redirect once the client and its
   * redirect URI check out, and an error page otherwise.
   */
  authorize(url: string, injected: number | null = null): PageAnswer {
    return atomically(this.deps.store, () => this.answerAuthorize(url, injected));
  }

  private answerAuthorize(url: string, injected: number | null): PageAnswer {
    const { recorder, settings } = this.deps;
    const params = Params.fromUrl(url);
    const outcome = checkAuthorizationRequest(params, {
      findClient: (clientId) => this.deps.manager.findClient(clientId),
      productionParity: settings.get().productionParity,
      injectedStatus: () => injected,
    });
    const client =
      outcome.kind === 'error_page' ? outcome.client : outcome.kind === 'ok' ? outcome.request.client : outcome.client;
    const started = this.deps.starts.find(client?.key.clientId, params.single('state'));
    const flowId = started?.flowId ?? recorder.start({ origin: 'external' });
    if (client) recorder.identify(flowId, client.integration.id, client.integration.name, client.key.clientId);
    const authorizeStep = (
      ok: boolean,
      summary: string,
      outcomeName: Extract<FlowStepDetail, { kind: 'authorize' }>['outcome'],
      status: FlowStatus,
      extra: Partial<Extract<FlowStepDetail, { kind: 'authorize' }>> = {},
    ) =>
      recorder.step(flowId, {
        ok,
        summary,
        status,
        detail: {
          kind: 'authorize',
          params: params.toRecord(isSecretParam, maskSecret),
          checks: outcome.checks,
          outcome: outcomeName,
          ...extra,
        },
      });

    if (outcome.kind === 'error_page') {
      authorizeStep(
        false,
        `authorization request refused with an error page: ${outcome.failed}`,
        'error_page',
        'failed',
        outcome.comparison ? { redirectComparison: outcome.comparison } : {},
      );
      return page(
        400,
        errorPage({
          title: 'This authorization request cannot be answered',
          message: outcome.failed,
          checks: outcome.checks,
          ...(outcome.comparison ? { comparison: outcome.comparison } : {}),
        }),
      );
    }
    if (outcome.kind === 'error_redirect') {
      authorizeStep(false, `authorization request refused: ${outcome.error.error}`, 'error_redirect', 'failed', {
        error: outcome.error,
      });
      return this.redirectWithError(flowId, outcome.redirectUri, outcome.error, outcome.state);
    }

    const { request } = outcome;
    if (settings.get().autoApprove) {
      const user = this.deps.store.users.findByUsername(DEMO_USER.username);
      if (!user) {
        authorizeStep(
          false,
          'auto-approve is on, but there is no login user to approve as',
          'error_redirect',
          'failed',
        );
        return this.redirectWithError(
          flowId,
          request.redirectUri,
          new ServerError('auto-approve has no login user to approve as').toView(),
          request.state,
        );
      }
      authorizeStep(
        true,
        'authorization request valid: auto-approved (sign-in and consent skipped)',
        'auto_approve',
        'started',
      );
      recorder.step(flowId, {
        ok: true,
        summary: `consent: auto-approved as ${user.username}`,
        detail: { kind: 'consent', decision: 'auto_approve', username: user.username },
      });
      return this.redirectWithCode(flowId, request, user);
    }

    const { interaction, cookie } = this.deps.interactions.create(request, flowId);
    authorizeStep(true, 'authorization request valid: sign-in page shown', 'login', 'signing_in');
    return { ...signInAnswer(request, { interactionId: interaction.id, csrf: interaction.csrf }), cookies: [cookie] };
  }

  /**
   * A sign-in form. A username locked by its failed sign-ins (`sign-in-throttle.ts`) is refused
   * before its password is checked; a refusal counts against this sign-in's own cap like a wrong
   * password, so no sign-in can grow its timeline without end.
   */
  async signIn(form: Params | null, cookie: string | undefined): Promise<PageAnswer> {
    const found = this.interactionOf(form, cookie, true);
    if ('status' in found) return found;
    const interaction = found;
    const { throttle } = this.deps;
    const username = form!.single('username') ?? '';
    const password = form!.single('password') ?? '';
    const locked = username ? throttle.check(username) : ({ ok: true } as const);
    if (!locked.ok)
      return this.failSignIn(
        interaction,
        username,
        `too many failed sign-ins for this user (locked for ${locked.retryAfterSec} s)`,
        locked.retryAfterSec,
        form!,
      );
    const user = username ? this.deps.store.users.findByUsername(username) : undefined;
    let passwordOk: boolean;
    try {
      passwordOk = await passwordMatches(this.deps.passwords, password, user?.passwordHash);
    } catch (error) {
      if (!(error instanceof PasswordChecksBusy)) throw error;
      return this.busy(interaction);
    }
    if (!user || !passwordOk) {
      if (!username || !password)
        return this.failSignIn(interaction, username, 'username or password missing', null, form!);
      // Only a real guess counts against the username.
      const gate = throttle.failed(username);
      return this.failSignIn(
        interaction,
        username,
        'wrong username or password',
        gate.ok ? null : gate.retryAfterSec,
        form!,
      );
    }
    throttle.succeeded(username);
    interaction.userId = user.id;
    interaction.username = user.username;
    this.deps.recorder.step(interaction.flowId, {
      ok: true,
      summary: `signed in as ${user.username}`,
      detail: { kind: 'login', username: user.username, ok: true, ...bodyOf(form!) },
    });
    return {
      status: 303,
      headers: { ...pageHeaders(), location: `${CONSENT_PATH}?interaction=${encodeURIComponent(interaction.id)}` },
    };
  }

  /** Too many sign-ins wait for their password check: try again shortly; nothing is counted. */
  private busy(interaction: Interaction): PageAnswer {
    const answer = signInAnswer(interaction.request, {
      interactionId: interaction.id,
      csrf: interaction.csrf,
      username: '',
      error: 'The login service is busy checking other sign-ins: try again in a few seconds.',
    });
    return { ...answer, status: 503, headers: { ...answer.headers, 'retry-after': '2' } };
  }

  /**
   * A sign-in that failed: the page again with the reason, a 429 while the username is locked,
   * or, at this sign-in's MAX_FAILED_SIGN_INS, the end of it (access_denied at the redirect URI).
   */
  private failSignIn(
    interaction: Interaction,
    username: string,
    reason: string,
    lockedForSec: number | null,
    form?: Params,
  ): PageAnswer {
    interaction.failedSignIns++;
    this.deps.recorder.step(interaction.flowId, {
      ok: false,
      summary: `sign-in failed: ${reason}`,
      detail: { kind: 'login', username: clip(username, 100), ok: false, reason, ...(form ? bodyOf(form) : {}) },
    });
    if (interaction.failedSignIns >= MAX_FAILED_SIGN_INS) {
      const clear = this.deps.interactions.finish(interaction);
      const answer = this.redirectWithError(
        interaction.flowId,
        interaction.request.redirectUri,
        new AccessDenied(`${MAX_FAILED_SIGN_INS} failed sign-ins`).toView(),
        interaction.request.state,
      );
      return { ...answer, cookies: [clear] };
    }
    const page = { interactionId: interaction.id, csrf: interaction.csrf, username };
    if (lockedForSec === null)
      return signInAnswer(interaction.request, { ...page, error: 'Wrong username or password.' });
    const answer = signInAnswer(interaction.request, {
      ...page,
      error: `Too many failed sign-ins for this user: try again in ${lockedForSec} s`,
    });
    return { ...answer, status: 429, headers: { ...answer.headers, 'retry-after': String(lockedForSec) } };
  }

  consent(query: Params, cookie: string | undefined): PageAnswer {
    const found = this.interactionOf(query, cookie, false);
    if ('status' in found) return found;
    const { request } = found;
    const user = found.userId ? this.deps.store.users.get(found.userId) : undefined;
    if (!user)
      return page(400, errorPage({ title: 'Sign in first', message: 'this sign-in has no signed-in user yet' }));
    return page(
      200,
      consentPage({
        integrationName: request.client.integration.name,
        description: request.client.integration.description,
        category: request.client.integration.category,
        username: user.username,
        householdName: this.deps.store.households.get(user.householdId)?.name ?? user.householdId,
        redirectOrigin: new URL(request.redirectUri).origin,
        interactionId: found.id,
        csrf: found.csrf,
      }),
      [new URL(request.redirectUri).origin],
    );
  }

  decide(form: Params | null, cookie: string | undefined): PageAnswer {
    return atomically(this.deps.store, () => this.answerDecision(form, cookie));
  }

  private answerDecision(form: Params | null, cookie: string | undefined): PageAnswer {
    const found = this.interactionOf(form, cookie, true);
    if ('status' in found) return found;
    const interaction = found;
    const user = interaction.userId ? this.deps.store.users.get(interaction.userId) : undefined;
    if (!user)
      return page(400, errorPage({ title: 'Sign in first', message: 'this sign-in has no signed-in user yet' }));
    const decision = form!.single('decision');
    if (decision !== 'allow' && decision !== 'deny')
      return page(400, errorPage({ title: 'No decision', message: 'the form must say allow or deny' }));
    const clear = this.deps.interactions.finish(interaction);
    const { recorder } = this.deps;
    recorder.step(interaction.flowId, {
      ok: decision === 'allow',
      summary: `consent: ${user.username} pressed ${decision === 'allow' ? 'Allow' : 'Deny'}`,
      detail: { kind: 'consent', decision, username: user.username, ...bodyOf(form!) },
    });
    const answer =
      decision === 'allow'
        ? this.redirectWithCode(interaction.flowId, interaction.request, user)
        : this.redirectWithError(
            interaction.flowId,
            interaction.request.redirectUri,
            new AccessDenied('the user denied access').toView(),
            interaction.request.state,
            'denied',
          );
    return { ...answer, cookies: [clear] };
  }

  /** The sign-in a form (or the consent page's query) names, checked against cookie and CSRF token. */
  private interactionOf(
    params: Params | null,
    cookie: string | undefined,
    checkCsrf: boolean,
  ): Interaction | PageAnswer {
    if (!params)
      return page(
        400,
        errorPage({ title: 'This form cannot be read', message: 'the form must be application/x-www-form-urlencoded' }),
      );
    const repeated = params.repeated();
    if (repeated.length > 0)
      return page(400, errorPage({ title: 'This form cannot be read', message: `${repeated.join(', ')} repeated` }));
    const found = this.deps.interactions.find(params.single('interaction'), cookie);
    if (!found.ok)
      return page(
        400,
        errorPage({ title: 'This sign-in cannot go on', message: `${found.why}. Start again from the app.` }),
      );
    if (checkCsrf && !this.deps.interactions.checkCsrf(found.interaction, params.single('csrf'))) {
      return page(
        400,
        errorPage({
          title: 'This sign-in cannot go on',
          message: 'the form is not the one this sign-in showed (CSRF token mismatch). Start again from the app.',
        }),
      );
    }
    return found.interaction;
  }

  private redirectWithCode(flowId: string, request: AuthorizationRequest, user: User): PageAnswer {
    const { code } = this.deps.issuer.issueCode({
      client: request.client,
      userId: user.id,
      householdId: user.householdId,
      redirectUri: request.redirectUri,
      scope: request.scope,
      codeChallenge: request.codeChallenge,
      flowId,
    });
    const location = withQuery(request.redirectUri, { code, state: request.state });
    const capture = this.deps.capture?.captures(request.redirectUri) ? this.deps.capture : null;
    this.deps.recorder.step(flowId, {
      ok: true,
      summary: capture
        ? 'redirect with code and state, kept by the login service (redirect capture)'
        : 'redirect to the redirect URI with code and state',
      status: 'code_issued',
      detail: {
        kind: 'redirect',
        location: maskSecretParams(location),
        redirectUri: request.redirectUri,
        code: mask(code),
        state: request.state,
      },
    });
    if (!capture) return redirect(location);
    const started = this.deps.starts.byFlow(flowId);
    // The redirect has arrived, here: the state of a console-started flow is good for no other.
    if (started) this.deps.starts.forget(started.state);
    const page = capture.hold({
      flowId,
      redirectUri: request.redirectUri,
      clientId: request.client.key.clientId,
      at: this.deps.issuer.now(),
      code,
      state: request.state,
      pkce: request.codeChallenge !== null,
      codeVerifier: started?.codeVerifier ?? null,
      by: 'login service',
    });
    this.recordCapture(flowId, location, {
      code: mask(code),
      state: request.state,
      stateMatches: started ? true : null,
      revealable: true,
    });
    return seeOther(page);
  }

  /** The callback step of a redirect the login service kept: the console is where it arrived. */
  private recordCapture(
    flowId: string,
    location: string,
    detail: {
      code?: string;
      state?: string;
      stateMatches: boolean | null;
      revealable: boolean;
      error?: OAuthErrorView;
    },
  ): void {
    this.deps.recorder.step(flowId, {
      ok: detail.error === undefined,
      summary: detail.error
        ? `redirect captured by the login service: error=${detail.error.error}, nothing sent to the redirect URI`
        : 'redirect captured by the login service: the code stays in the console (reveal it once), nothing sent to the redirect URI',
      detail: {
        kind: 'callback',
        url: maskSecretParams(location),
        captured: true,
        capturedBy: 'login service',
        ...detail,
      },
    });
  }

  private redirectWithError(
    flowId: string,
    redirectUri: string,
    error: OAuthErrorView,
    state: string | undefined,
    status: FlowStatus = 'failed',
  ): PageAnswer {
    const location = withQuery(redirectUri, { error: error.error, error_description: error.description, state });
    const capture = this.deps.capture?.captures(redirectUri) ? this.deps.capture : null;
    this.deps.recorder.step(flowId, {
      ok: false,
      summary: `redirect${capture ? ', kept by the login service,' : ' to the redirect URI'} with error=${error.error}`,
      status,
      detail: { kind: 'redirect', location, redirectUri, ...(state !== undefined ? { state } : {}), error },
    });
    if (!capture) return redirect(location);
    const started = this.deps.starts.byFlow(flowId);
    if (started) this.deps.starts.forget(started.state);
    const page = capture.hold({
      flowId,
      redirectUri,
      clientId: started?.clientId ?? '',
      at: this.deps.issuer.now(),
      ...(state !== undefined ? { state } : {}),
      error,
      pkce: false,
      codeVerifier: null,
      by: 'login service',
    });
    this.recordCapture(flowId, location, {
      ...(state !== undefined ? { state } : {}),
      stateMatches: started ? true : null,
      revealable: false,
      error,
    });
    return seeOther(page);
  }
}

function page(status: number, body: string, formTargets: readonly string[] = []): PageAnswer {
  return { status, headers: pageHeaders(formTargets), body };
}

/** The sign-in page; its form may end in a redirect to the redirect URI (too many failures). */
function signInAnswer(
  request: AuthorizationRequest,
  form: Omit<Parameters<typeof signInPage>[0], 'integrationName'>,
): PageAnswer {
  return page(200, signInPage({ integrationName: request.client.integration.name, ...form }), [
    new URL(request.redirectUri).origin,
  ]);
}

function redirect(location: string): PageAnswer {
  return {
    status: 302,
    headers: { location, 'cache-control': 'no-store', pragma: 'no-cache', 'referrer-policy': 'no-referrer' },
  };
}

/** To the page of a captured redirect: a GET, so a reload of it posts nothing and issues nothing. */
function seeOther(location: string): PageAnswer {
  return {
    status: 303,
    headers: { location, 'cache-control': 'no-store', pragma: 'no-cache', 'referrer-policy': 'no-referrer' },
  };
}

/** A form's body for its step, secrets masked (`formBody`). */
function bodyOf(form: Params): { requestBody?: FlowRequestBody } {
  const body = formBody(form);
  return body ? { requestBody: body } : {};
}
