/**
 * What the inspector shows inside a step: the checklist of what was validated, the redirect URI
 * character by character, the decoded Basic header, the tokens issued (masked), the API call, and
 * the body of the request a step answered (a sign-in or consent form, a token request), as sent
 * with its secrets masked.
 */
import type {
  BasicHeaderReport,
  FlowCheck,
  FlowRequestBody,
  FlowStepDetail,
  RedirectComparison,
} from '@engine-api/oauth-types';
import styles from './StepDetail.module.css';

export function StepDetail({ detail }: { detail: FlowStepDetail }) {
  switch (detail.kind) {
    case 'authorize':
      return (
        <>
          {detail.error && <ErrorLine error={detail.error} />}
          <Checklist checks={detail.checks} />
          {detail.redirectComparison && <Comparison comparison={detail.redirectComparison} />}
          <ParamsTable title="Query parameters" params={detail.params} />
        </>
      );
    case 'token':
      return (
        <>
          {detail.error && <ErrorLine error={detail.error} />}
          <BasicHeader report={detail.basic} />
          <Checklist checks={detail.checks} />
          {detail.issued && (
            <KeyValues
              title="Issued"
              rows={[
                ['access_token', detail.issued.accessToken],
                ['refresh_token', `${detail.issued.refreshToken}${refreshTokenNote(detail.issued)}`],
                ['expires_in', String(detail.issued.expiresIn)],
                ['scope', detail.issued.scope],
              ]}
            />
          )}
          <ParamsTable title="Form parameters" params={detail.params} />
          {detail.requestBody && <RequestBody body={detail.requestBody} />}
        </>
      );
    case 'redirect':
      return (
        <KeyValues
          rows={[
            ['Location', detail.location],
            ['code', detail.code],
            ['state', detail.state],
            ['error', detail.error && `${detail.error.error}: ${detail.error.description}`],
          ]}
        />
      );
    case 'callback':
      return (
        <KeyValues
          rows={[
            ['URL', detail.url],
            ['code', detail.code],
            ['state', detail.state],
            ['state matches', detail.stateMatches === null ? undefined : detail.stateMatches ? 'yes' : 'no'],
            [
              'captured by the console',
              detail.captured
                ? `yes, by the ${detail.capturedBy ?? 'console'} (nothing needs to listen at the redirect URL)`
                : 'no',
            ],
            ['code held', detail.revealable ? 'for one reveal (Reveal code, above)' : undefined],
            ['error', detail.error && `${detail.error.error}: ${detail.error.description}`],
          ]}
        />
      );
    case 'api_call':
      return (
        <KeyValues
          rows={[
            ['Request', `${detail.method} ${detail.path}`],
            ['Status', String(detail.status)],
            ['Access token', detail.token],
            ['Token', detail.accepted ? 'accepted' : `refused: ${detail.reason ?? ''}`],
          ]}
        />
      );
    case 'revocation':
      return (
        <KeyValues
          rows={[
            ['Reason', detail.reason],
            ['Tokens revoked', String(detail.tokensRevoked)],
            ['Grant', detail.grantId],
          ]}
        />
      );
    case 'login':
      return (
        <>
          <KeyValues
            rows={[
              ['Username', detail.username],
              ['Result', detail.ok ? 'signed in' : detail.reason],
            ]}
          />
          {detail.requestBody && <RequestBody body={detail.requestBody} />}
        </>
      );
    case 'consent':
      return (
        <>
          <KeyValues
            rows={[
              ['Decision', detail.decision.replace('_', '-')],
              ['User', detail.username],
            ]}
          />
          {detail.requestBody && <RequestBody body={detail.requestBody} />}
        </>
      );
    case 'navigation':
      return (
        <KeyValues
          rows={[
            ['Event', detail.event],
            ['URL', detail.url],
          ]}
        />
      );
    case 'sample':
      return (
        <KeyValues
          rows={[
            ['Step', detail.action],
            ['Status', detail.status === null ? 'no answer' : String(detail.status)],
            ['Result', detail.message],
          ]}
        />
      );
  }
}

/** The request body as sent (secrets masked by the engine), one form field a line for a form. */
function RequestBody({ body }: { body: FlowRequestBody }) {
  const form = body.contentType.startsWith('application/x-www-form-urlencoded');
  return (
    <div className={styles.kvBlock} role="group" aria-label="Request body">
      <div className={styles.kvTitle}>
        Request body <span className="muted">{body.contentType}</span>
      </div>
      <pre className={styles.requestBody}>{form ? body.text.split('&').join('\n&') : body.text}</pre>
    </div>
  );
}

function ErrorLine({ error }: { error: { error: string; description: string } }) {
  return (
    <p className={styles.stepError}>
      <code>{error.error}</code> {error.description}
    </p>
  );
}

function Checklist({ checks }: { checks: FlowCheck[] }) {
  return (
    <ul className={styles.checklist} aria-label="Checks">
      {checks.map((check) => (
        <li key={check.id} data-ok={check.ok === null ? 'skipped' : String(check.ok)}>
          <span className={styles.mark} aria-hidden="true">
            {check.ok === true ? '✓' : check.ok === false ? '✗' : '·'}
          </span>
          <span className="sr-only">
            {check.ok === true ? 'passed' : check.ok === false ? 'failed' : 'not checked'}:
          </span>
          <span>
            {check.label}
            {check.detail && <span className="muted"> — {check.detail}</span>}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Presented vs registered redirect URI, the differing tail marked. */
function Comparison({ comparison }: { comparison: RedirectComparison }) {
  if (comparison.closest === null) return <p className="muted">No redirect URL is registered for this key.</p>;
  const at = comparison.firstDifference ?? comparison.presented.length;
  const line = (label: string, value: string) => (
    <div className={styles.diffLine}>
      <span className="muted">{label}</span>
      <code>
        {value.slice(0, at)}
        <mark>{value.slice(at) || ' '}</mark>
      </code>
    </div>
  );
  return (
    <div className={styles.comparison} aria-label="Redirect URI comparison">
      {line('presented', comparison.presented)}
      {line('registered', comparison.closest)}
      {comparison.firstDifference !== null && (
        <p className="muted">They differ from character {comparison.firstDifference + 1} on.</p>
      )}
      {comparison.hints.length > 0 && (
        <ul className={styles.hints}>
          {comparison.hints.map((hint) => (
            <li key={hint}>{hint}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function BasicHeader({ report }: { report: BasicHeaderReport }) {
  return (
    <KeyValues
      title="Authorization header"
      rows={[
        ['Present', report.present ? 'yes' : 'no'],
        ['Scheme', report.scheme ?? undefined],
        ['client_id (decoded)', report.clientId ?? undefined],
        ['client_secret (decoded)', report.secret ?? undefined],
        ['Verdict', report.verdict.replace('_', ' ')],
        ...report.problems.map((problem, i): [string, string] => [i === 0 ? 'Problems' : '', problem]),
      ]}
    />
  );
}

function ParamsTable({ title, params }: { title: string; params: Record<string, string[]> }) {
  const rows = Object.entries(params).flatMap(([name, values]) =>
    values.map((value): [string, string] => [values.length > 1 ? `${name} (repeated)` : name, value]),
  );
  return rows.length === 0 ? null : <KeyValues title={title} rows={rows} />;
}

function KeyValues({ title, rows }: { title?: string; rows: [string, string | undefined][] }) {
  const shown = rows.filter((row): row is [string, string] => row[1] !== undefined && row[1] !== '');
  return (
    <div className={styles.kvBlock}>
      {title && <div className={styles.kvTitle}>{title}</div>}
      <dl>
        {shown.map(([key, value], i) => (
          <div key={`${key}-${i}`}>
            <dt>{key}</dt>
            <dd>
              <code>{value}</code>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** Which refresh token the answer carried: a new one, the one presented, or the current one (grace). */
function refreshTokenNote(issued: { rotated: boolean; reusedWithinGrace?: true }): string {
  if (issued.reusedWithinGrace) return ' (the current one: reused within grace)';
  return issued.rotated ? ' (new)' : ' (kept: rotation off)';
}
