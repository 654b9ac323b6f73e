/**
 * How a grant is written (as oidc-provider writes its pipeline): one checklist of small,
 * verb-named steps, run in the order they are listed, which is the order the inspector shows. A
 * step passes (returning a detail for the inspector, if it has one), drops its line when it does
 * not apply (`{ skip }`), or throws the OAuthError that refuses the request. The runner writes each
 * outcome on the checklist, so no step touches it; once every step passed, the grant issues.
 */
import type { BasicHeaderReport } from '../../api/oauth-types.js';
import type { Store } from '../../store/store.js';
import type { BasicParse } from '../client-auth/basic-auth.js';
import type { Checklist } from '../inspector/checklist.js';
import type { FlowStart } from '../inspector/flow-recorder.js';
import type { IntegrationManager, RegisteredClient } from '../integrations/integrations.js';
import { OAuthError } from '../oauth-error.js';
import type { Params } from '../params.js';
import type { IssuedTokens, Issuer } from './issuer.js';

export type GrantType = 'authorization_code' | 'refresh_token';

/** A step's outcome when it does not refuse: passed (with a detail, or none), or not applicable. */
export type Verdict = string | undefined | { skip: string };

export interface Step<X> {
  /** The checklist line this step decides (its id in the inspector). */
  check: string;
  label: string;
  run: (exchange: X) => Verdict;
}

/** What the inspector learns from one token request on its way. */
export interface TokenTrace {
  checks: Checklist<string>;
  basic: BasicHeaderReport;
  /** grant_type as sent, which may be one no grant answers to. */
  grantType: string | null;
  flowId: string | null;
  flowStart: FlowStart;
  issued?: IssuedTokens;
  /** The request revoked a grant (code replay, refresh token reuse). */
  revoked?: boolean;
}

/** One token request as a grant's steps see it; the steps fill in what they learn. */
export interface TokenExchange {
  form: Params;
  /** Why the body is no form (wrong content type, oversized, unreadable), or null. */
  unreadable: string | null;
  basic: BasicParse;
  /** The grant whose checklist runs; null when grant_type names none. */
  grantType: GrantType | null;
  /** Set by `authenticateClient`; the steps after it read it through `clientOf`. */
  client: RegisteredClient | null;
  trace: TokenTrace;
  store: Pick<Store, 'authorizationCodes' | 'grants' | 'tokens'>;
  manager: Pick<IntegrationManager, 'findClient'>;
  issuer: Issuer;
}

/** A grant as the token endpoint uses it. */
export interface Grant {
  grantType: GrantType | null;
  /** Its checklist's lines in order, shown before anything is checked (unreached ones stay open). */
  labels: Record<string, string>;
  /** Runs the checklist on `exchange` and issues; throws the OAuthError that refuses the request. */
  exchange(exchange: TokenExchange): IssuedTokens;
}

export interface GrantChecklist<X extends TokenExchange> {
  grantType: GrantType;
  /** The exchange with this grant's own findings still empty. */
  begin(exchange: TokenExchange): X;
  steps: readonly Step<X>[];
  /**
   * Spends what was presented and issues tokens. A race lost here (two requests presenting the
   * same code or refresh token at once) is the failure of the line `failsAs` names.
   */
  issue: { failsAs: string; run: (exchange: X) => IssuedTokens };
}

export function defineGrant<X extends TokenExchange>(checklist: GrantChecklist<X>): Grant {
  return {
    grantType: checklist.grantType,
    labels: labelsOf(checklist.steps),
    exchange: (request) => {
      const exchange = checklist.begin(request);
      runSteps(checklist.steps, exchange);
      return decide(request.trace.checks, checklist.issue.failsAs, () => checklist.issue.run(exchange));
    },
  };
}

export function labelsOf(steps: readonly Step<never>[]): Record<string, string> {
  return Object.fromEntries(steps.map((step) => [step.check, step.label]));
}

/** Runs `steps` in order, each outcome written on the exchange's checklist; stops at the first refusal. */
export function runSteps<X extends TokenExchange>(steps: readonly Step<X>[], exchange: X): void {
  const { checks } = exchange.trace;
  for (const step of steps) {
    const verdict = decide(checks, step.check, () => step.run(exchange));
    if (typeof verdict === 'object') checks.skip(step.check, verdict.skip);
    else checks.pass(step.check, verdict);
  }
}

/** `work`'s result; an OAuthError it throws fails line `check` with the error's description. */
function decide<T>(checks: Checklist<string>, check: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof OAuthError) checks.fail(check, error.description);
    throw error;
  }
}

/** What an earlier step found, for a step after it; reading it sooner is a bug in the checklist's order. */
export function foundBy<T>(value: T | null, step: string): T {
  if (value === null) throw new Error(`${step} must run before this step`);
  return value;
}

export function clientOf(exchange: TokenExchange): RegisteredClient {
  return foundBy(exchange.client, 'authenticateClient');
}
