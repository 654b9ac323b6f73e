/**
 * One exchange in full: what was asked and answered (headers and bodies, JSON pretty-printed),
 * with secrets masked until "Reveal secrets", what its answer broke of the contract (the
 * violations the player that made it stored), and a link to each player transition its answer
 * caused, which opens the Player page on that transition. The log stores secrets masked; reveal
 * shows what the running console still holds, and says so when it holds nothing. A part capture
 * cut to keep the entry within its size says where it was cut (docs/contract/console.md §9).
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { TrafficCut, TrafficEntry } from '@engine-api/traffic-types';
import { useTrafficEntry } from '../../queries/traffic';
import { formatEngineClock, formatEngineTime } from '../../format/engine-time';
import { cutNote, faultText, prettyBody, statusClass, statusText } from './format';

export function TrafficDetail({ id }: { id: number | null }) {
  // A new entry opens masked again: revealing is a choice made for one entry.
  const [revealedId, setRevealedId] = useState<number | null>(null);
  const reveal = id !== null && revealedId === id;
  const { data: entry, error, isFetching } = useTrafficEntry(id, reveal);

  if (id === null) {
    return (
      <aside id="traffic-detail" className="traffic-detail panel" aria-label="Entry details">
        <p className="muted">Select an entry (↑/↓ and Enter, or a click) to see its headers and bodies.</p>
      </aside>
    );
  }
  return (
    <aside id="traffic-detail" className="traffic-detail panel" aria-label="Entry details">
      {error && <p className="error" role="alert">{error.message}</p>}
      {entry && (
        <>
          <div className="panel-head">
            <h2 className="detail-title">
              <code>{entry.method}</code> <code className="path">{entry.path}</code>
            </h2>
            <span className="status-badge" data-status={statusClass(entry.status)}>
              {statusText(entry)}
            </span>
          </div>
          {entry.fault && (
            <p className="fault-line" role="note">
              ⚡ {faultText(entry.fault)}
            </p>
          )}
          <dl className="detail-facts">
            <dt>Engine time</dt>
            <dd>
              <code>{formatEngineTime(entry.at, { millis: true })}</code>
            </dd>
            <dt>Wall time</dt>
            <dd>
              <code>{formatEngineClock(entry.wallAt)}</code>
            </dd>
            <dt>Target</dt>
            <dd>{entry.target}</dd>
            {entry.reason && (
              <>
                <dt>Reason</dt>
                <dd>
                  <code>{entry.reason}</code>
                </dd>
              </>
            )}
            <dt>Latency</dt>
            <dd>{entry.latencyMs === null ? '—' : `${entry.latencyMs} ms`}</dd>
            {entry.retry !== null && (
              <>
                <dt>Retry</dt>
                <dd>{entry.retry === 0 ? 'first try' : `retry ${entry.retry}`}</dd>
              </>
            )}
            {entry.playerId && (
              <>
                <dt>Player</dt>
                <dd>
                  <code>{entry.playerId}</code>
                </dd>
              </>
            )}
            {entry.requestId && (
              <>
                <dt>Request id</dt>
                <dd>
                  <code>{entry.requestId}</code>
                </dd>
              </>
            )}
            <dt>URL</dt>
            <dd>
              <code className="url" data-testid="entry-url">
                {entry.url}
              </code>
            </dd>
          </dl>
          <div className="detail-actions">
            <button type="button" aria-pressed={reveal} disabled={isFetching} onClick={() => setRevealedId(reveal ? null : id)}>
              Reveal secrets
            </button>
            <span className="muted">{entry.redacted ? 'tokens and secrets are masked' : 'secrets shown in full'}</span>
          </div>
          {entry.revealNote && (
            <p className="reveal-note" role="status">
              {entry.revealNote}
            </p>
          )}
          <Violations entry={entry} />
          <Transitions entry={entry} />
          <Exchange title="Request" headers={entry.requestHeaders} body={entry.requestBody} headersCut={entry.cut?.requestHeaders} bodyCut={entry.cut?.requestBody} />
          <Exchange title="Response" headers={entry.responseHeaders} body={entry.responseBody} headersCut={entry.cut?.responseHeaders} bodyCut={entry.cut?.responseBody} />
        </>
      )}
    </aside>
  );
}

/** What the server's developer must fix in this answer (docs/contract/console.md §5). */
function Violations({ entry }: { entry: TrafficEntry }) {
  if (entry.violations.length === 0) return null;
  return (
    <section className="detail-section" aria-label="Contract violations">
      <h3>Contract violations in this answer</h3>
      <ul className="entry-violations">
        {entry.violations.map((v) => (
          <li key={v.id} data-level={v.level}>
            <span className="badge">{v.level}</span> <code>{v.rule}</code> {v.message}{' '}
            <Link to="/player" search={{ player: v.playerId }} className="muted">
              {v.playerId}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Transitions({ entry }: { entry: TrafficEntry }) {
  if (entry.transitions.length === 0) return null;
  return (
    <section className="detail-section" aria-label="Transitions caused">
      <h3>Player transitions this answer caused</h3>
      <ul className="transition-links">
        {entry.transitions.map((t) => (
          <li key={t.seq}>
            <Link to="/player" search={{ player: t.playerId, transition: t.seq }}>
              {t.from === t.to ? t.to : `${t.from} → ${t.to}`} <code>{t.transition}</code>
            </Link>{' '}
            <span className="muted">
              {t.playerId} at {formatEngineClock(t.at)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

type PartCut = NonNullable<TrafficCut['requestBody']>;

function Exchange({ title, headers, body, headersCut, bodyCut }: { title: string; headers: Record<string, string>; body: string | null; headersCut?: PartCut; bodyCut?: PartCut }) {
  const names = Object.keys(headers);
  const text = prettyBody(body);
  return (
    <section className="detail-section" aria-label={title}>
      <h3>{title}</h3>
      {headersCut && <p className="cut-note">Headers {cutNote(headersCut)}</p>}
      {names.length > 0 ? (
        <table className="header-table">
          <tbody>
            {names.map((name) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>
                  <code>{headers[name]}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No headers.</p>
      )}
      {bodyCut && <p className="cut-note">Body {cutNote(bodyCut)}</p>}
      {text ? (
        <pre className="body" aria-label={`${title} body`} tabIndex={0}>
          {text}
        </pre>
      ) : (
        <p className="muted">No body.</p>
      )}
    </section>
  );
}
