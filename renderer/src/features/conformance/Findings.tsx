/**
 * What a person reads first in a run (docs/contract/console.md §8): its failures, then its
 * warnings, each with what was expected and what came back in one sentence, the curl that repeats
 * its decisive request (copyable; the Authorization is left to the shell), the exchanges behind it
 * and its traffic entries.
 */
import { bodyNote, exchangeOutcome } from '@engine-api/conformance-text';
import type { ConformanceExchange } from '@engine-api/conformance-types';
import { CopyButton } from '../../components/CopyButton';
import { Evidence } from './Evidence';
import { firstFinding, type CaseRow } from './grouping';
import { OutcomeBadge } from './OutcomeBadge';
import { Hint } from './Hint';
import styles from './Findings.module.css';

export function Findings({ rows }: { rows: readonly CaseRow[] }) {
  if (rows.length === 0) return null;
  const failures = rows.filter((row) => row.result?.outcome === 'fail').length;
  const warnings = rows.length - failures;
  const heading = [
    failures ? `${failures} failure${failures === 1 ? '' : 's'}` : '',
    warnings ? `${warnings} warning${warnings === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return (
    <section className={styles.findings} aria-label="Failures and warnings">
      <h3>{heading[0]!.toUpperCase() + heading.slice(1)}</h3>
      <ol>
        {rows.map(({ info, result }) =>
          result ? (
            <li key={info.id} data-case-id={info.id} data-outcome={result.outcome} className={styles.finding}>
              <div className={styles.findingHead}>
                <OutcomeBadge outcome={result.outcome} state="settled" />
                <span className={styles.caseTitle}>{info.title}</span> <code className={styles.caseId}>{info.id}</code>{' '}
                <Hint>{info.rule}</Hint>
              </div>
              <p className={styles.sentence}>{firstFinding(result.message)}</p>
              {/* The findings after the first: the whole message below it said the first twice (audit-ui W14). */}
              {firstFinding(result.message) !== result.message && (
                <p className={styles.message}>{result.message.slice(firstFinding(result.message).length + 2)}</p>
              )}
              {result.curl && (
                <div className={styles.curl}>
                  <div className={styles.curlHead}>
                    <Hint>
                      Repeat it
                      {result.curl.includes('$AUTHORIZATION') ? ' (set AUTHORIZATION in your shell first)' : ''}
                    </Hint>
                    <CopyButton value={result.curl} label={`Copy the curl of ${info.id}`} />
                  </div>
                  <pre aria-label={`curl of ${info.id}`}>{result.curl}</pre>
                </div>
              )}
              {result.exchanges?.[0] && <Exchange exchange={result.exchanges[0]} index={0} />}
              {/* The rest folded under one line: each was a Tab stop, about fifteen a card (ui-x3 U18). */}
              {(result.exchanges?.length ?? 0) > 1 && (
                <details className={styles.moreExchanges}>
                  <summary>
                    {result.exchanges!.length - 1} more exchange{result.exchanges!.length === 2 ? '' : 's'} behind it
                  </summary>
                  {result.exchanges!.slice(1).map((exchange, index) => (
                    <Exchange key={index + 1} exchange={exchange} index={index + 1} />
                  ))}
                </details>
              )}
              {result.trafficIds.length > 0 && <Evidence caseId={info.id} trafficIds={result.trafficIds} />}
            </li>
          ) : null,
        )}
      </ol>
    </section>
  );
}

function Exchange({ exchange, index }: { exchange: ConformanceExchange; index: number }) {
  const status = exchangeOutcome(exchange);
  const lines = [
    ...Object.entries(exchange.requestHeaders).map(([name, value]) => `> ${name}: ${value}`),
    ...(exchange.requestBody ? [`> (body, ${bodyNote(exchange.requestBody)})`, exchange.requestBody.text] : []),
    ...Object.entries(exchange.responseHeaders).map(([name, value]) => `< ${name}: ${value}`),
    ...(exchange.responseBody ? [`< (body, ${bodyNote(exchange.responseBody)})`, exchange.responseBody.text] : []),
  ];
  return (
    <details className={styles.exchange}>
      <summary>
        {index === 0 ? 'Decisive exchange' : `Exchange ${index + 1}`}:{' '}
        <code>{`${exchange.method} ${exchange.url} → ${status}`}</code>
      </summary>
      <pre>{lines.join('\n')}</pre>
    </details>
  );
}
