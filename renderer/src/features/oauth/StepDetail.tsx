/**
 * What the inspector shows inside a step: the checklist of what was validated, the redirect URI
 * character by character, the decoded Basic header, the tokens issued (masked), the API call.
 */
import type { BasicHeaderReport, FlowCheck, FlowStepDetail, RedirectComparison } from '@engine-api/oauth-types';

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
            ['captured by the console', detail.captured ? 'yes (nothing needs to listen at the redirect URL)' : 'no'],
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
      return <KeyValues rows={[['Reason', detail.reason], ['Tokens revoked', String(detail.tokensRevoked)], ['Grant', detail.grantId]]} />;
    case 'login':
      return <KeyValues rows={[['Username', detail.username], ['Result', detail.ok ? 'signed in' : detail.reason]]} />;
    case 'consent':
      return <KeyValues rows={[['Decision', detail.decision.replace('_', '-')], ['User', detail.username]]} />;
    case 'navigation':
      return <KeyValues rows={[['Event', detail.event], ['URL', detail.url]]} />;
    case 'sample':
      return <KeyValues rows={[['Step', detail.action], ['Status', detail.status === null ? 'no answer' : String(detail.status)], ['Result', detail.message]]} />;
  }
}

function ErrorLine({ error }: { error: { error: string; description: string } }) {
  return (
    <p className="step-error">
      <code>{error.error}</code> {error.description}
    </p>
  );
}

function Checklist({ checks }: { checks: FlowCheck[] }) {
  return (
    <ul className="checklist" aria-label="Checks">
      {checks.map((check) => (
        <li key={check.id} data-ok={check.ok === null ? 'skipped' : String(check.ok)}>
          <span className="mark" aria-hidden="true">
            {check.ok === true ? '✓' : check.ok === false ? '✗' : '·'}
          </span>
          <span className="sr-only">{check.ok === true ? 'passed' : check.ok === false ? 'failed' : 'not checked'}:</span>
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
    <div className="diff-line">
      <span className="muted">{label}</span>
      <code>
        {value.slice(0, at)}
        <mark>{value.slice(at) || ' '}</mark>
      </code>
    </div>
  );
  return (
    <div className="comparison" aria-label="Redirect URI comparison">
      {line('presented', comparison.presented)}
      {line('registered', comparison.closest)}
      {comparison.firstDifference !== null && <p className="muted">They differ from character {comparison.firstDifference + 1} on.</p>}
      {comparison.hints.length > 0 && (
        <ul className="hints">
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
  const rows = Object.entries(params).flatMap(([name, values]) => values.map((value): [string, string] => [values.length > 1 ? `${name} (repeated)` : name, value]));
  return rows.length === 0 ? null : <KeyValues title={title} rows={rows} />;
}

function KeyValues({ title, rows }: { title?: string; rows: [string, string | undefined][] }) {
  const shown = rows.filter((row): row is [string, string] => row[1] !== undefined && row[1] !== '');
  return (
    <div className="kv-block">
      {title && <div className="kv-title">{title}</div>}
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
