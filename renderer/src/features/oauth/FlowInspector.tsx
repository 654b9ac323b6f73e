/**
 * The OAuth flow inspector: every flow, newest first, and the selected flow's timeline, every
 * step from the authorization request to the API calls made with its tokens, live.
 */
import { useEffect, useRef } from 'react';
import type { FlowStepKind, FlowSummary } from '@engine-api/oauth-types';
import { StatusBadge } from './StatusBadge';
import { useFlow, useFlows, useIntegrations } from '../../queries/oauth';
import { CapturedCode } from './CapturedCode';
import { FormError } from './fields';
import { useInspectorStore, useSelectedFlow, useSelectFlow } from './inspector-store';
import { StartedValues } from './StartedNotice';
import { StepDetail } from './StepDetail';
import { pendingTokenRequest } from './token-request';
import { TokenRequestHint } from './TokenRequestHint';
import { useEngineState } from '../../queries/engine-state';
import { formatEngineMoment } from '../../format/engine-time';
import { useEngineDay } from '../../stores/clock';
import styles from './FlowInspector.module.css';
import { summaryAfterKind } from './step-summary';

const STEP_NAMES: Record<FlowStepKind, string> = {
  authorize: 'Authorize request',
  login: 'Sign-in',
  consent: 'Consent',
  redirect: 'Redirect',
  token: 'Token request',
  revocation: 'Revocation',
  api_call: 'API call',
  navigation: 'Window',
  callback: 'Callback',
  sample: 'Sample app',
};

const STATUS_NAMES: Record<FlowSummary['status'], string> = {
  started: 'started',
  signing_in: 'signing in',
  code_issued: 'code issued',
  tokens_issued: 'tokens issued',
  denied: 'denied',
  failed: 'failed',
  revoked: 'revoked',
};

/** How much of the inspector must show, at the window's foot or its top, to count as in view. */
const IN_VIEW_PX = 120;

export function FlowInspector({ className }: { className?: string }) {
  const today = useEngineDay();
  const { data: flows, error } = useFlows();
  const selected = useSelectedFlow();
  const select = useSelectFlow();
  const current = selected ?? flows?.[0]?.id ?? null;
  const card = useRef<HTMLElement>(null);
  // A flow the address names (started here, by the guided demo, a flow's button in the grants,
  // or a link) is brought into view when the inspector is out of it: in one column, at 1024 px,
  // the page may be scrolled down the integrations (audit-ui W4). In view, it is not scrolled to
  // (the first flow named there moves the inspector first: OAuthPage.module.css).
  useEffect(() => {
    const element = card.current;
    if (!selected || !element) return;
    const { top, bottom } = element.getBoundingClientRect();
    if (top < window.innerHeight - IN_VIEW_PX && bottom > IN_VIEW_PX) return;
    element.scrollIntoView({ block: 'start' });
  }, [selected]);

  return (
    <section ref={card} className={`${styles.card} ${className ?? ''}`} aria-labelledby="inspector-title">
      <h2 id="inspector-title">Flow inspector</h2>
      <FormError error={error} />
      {!flows && !error && <p className="muted">Reading the flows…</p>}
      {flows && flows.length === 0 && (
        <p className="muted">No flows yet. Run the sample flow, or point your app at the login service.</p>
      )}
      <div className={styles.inspectorBody}>
        <ul className={styles.flowList} aria-label="Flows">
          {flows?.map((flow) => (
            <li key={flow.id}>
              <button
                type="button"
                className={styles.flowItem}
                aria-current={flow.id === current ? 'true' : undefined}
                onClick={() => select(flow.id)}
              >
                <span className={styles.flowName}>{flow.integrationName ?? flow.clientId ?? 'unknown client'}</span>
                <StatusBadge status={flow.status}>{STATUS_NAMES[flow.status]}</StatusBadge>
                <span className="muted">
                  {formatEngineMoment(flow.startedAt, today)} · {flow.origin} · {flow.stepCount} step
                  {flow.stepCount === 1 ? '' : 's'}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {current && <Timeline flowId={current} />}
      </div>
    </section>
  );
}

function Timeline({ flowId }: { flowId: string }) {
  const today = useEngineDay();
  const started = useInspectorStore((s) => s.started[flowId]);
  const { data: flow, error } = useFlow(flowId);
  const login = useEngineState().data?.urls.login;
  const integrations = useIntegrations().data;
  if (error) return <FormError error={error} />;
  if (!flow) return <p className="muted">Loading…</p>;
  const integration = integrations?.find((i) => i.id === flow.integrationId);
  // The sample integration's code is the console's own to trade (also in the desktop OAuth window).
  const sample = integration?.sample ?? false;
  const deleted = integrations !== undefined && flow.integrationId !== null && integration === undefined;
  const pending = login ? pendingTokenRequest(flow, login, started?.codeVerifier ?? null, { sample, deleted }) : null;
  return (
    <div>
      <p className={styles.timelineHead}>
        <strong>{flow.integrationName ?? 'Unknown client'}</strong>{' '}
        <StatusBadge status={flow.status}>{STATUS_NAMES[flow.status]}</StatusBadge>{' '}
        <span className="muted">
          {flow.origin} · {flow.id}
        </span>
      </p>
      {started && (
        <p className={styles.timelineStarted} role="group" aria-label="Started here">
          Started here: <StartedValues started={started} />
        </p>
      )}
      {flow.capturedCode && <CapturedCode flowId={flow.id} captured={flow.capturedCode} />}
      {/* A captured code's token request comes with its reveal, the code in it. */}
      {pending && !flow.capturedCode && <TokenRequestHint request={pending} />}
      <ol className={styles.timeline} aria-label="Timeline">
        {flow.steps.map((step, index) => (
          <li key={step.seq} className={styles.step} data-ok={step.ok} data-kind={step.kind}>
            <details open={!step.ok && index === flow.steps.length - 1}>
              <summary>
                <span className={styles.stepTime}>{formatEngineMoment(step.at, today)}</span>
                <span className={styles.stepMark} aria-hidden="true">
                  {step.ok ? '✓' : '✗'}
                </span>
                <span className={styles.stepKind}>{STEP_NAMES[step.kind]}</span>
                <span className={styles.stepSummary}>
                  {step.detail.kind === 'token' && step.detail.issued?.reusedWithinGrace && (
                    <>
                      <StatusBadge
                        status="grace"
                        title="A refresh token rotated away moments ago, presented again within the integration's grace window: answered with the current refresh token, nothing revoked"
                      >
                        reused within grace
                      </StatusBadge>{' '}
                    </>
                  )}
                  {summaryAfterKind(step.kind, step.summary)}
                </span>
              </summary>
              <div className={styles.stepDetail}>
                <StepDetail detail={step.detail} />
              </div>
            </details>
          </li>
        ))}
      </ol>
    </div>
  );
}
