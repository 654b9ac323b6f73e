/**
 * One exchange in full: what was asked and answered (headers and bodies, JSON pretty-printed),
 * with secrets masked until "Reveal secrets", what its answer broke of the contract (the
 * violations the player that made it stored), and a link to each player transition its answer
 * caused, which opens the Player page on that transition. The log stores secrets masked; reveal
 * shows what the running console still holds, and says so when it holds nothing. A part capture
 * cut to keep the entry within its size says where it was cut (docs/contract/console.md §9).
 * The player's request and the same request as the console's server got it share a request id:
 * each links to the other side. The request copies as curl and as fetch, masked unless revealed.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { TrafficCut, TrafficEntry } from '@engine-api/traffic-types';
import { curlOf, fetchOf } from '@engine-api/curl';
import { CopyButton } from '../../components/CopyButton';
import { DataTable } from '../../components/DataTable';
import { Badge } from '../../components/Badge';
import { useEngineState } from '../../queries/engine-state';
import { useRequestExchanges, useTrafficEntry } from '../../queries/traffic';
import { formatEngineClock, formatEngineTime } from '../../format/engine-time';
import { cutNote, faultText, formFields, otherSide, pairSide, prettyBody, statusClass, statusText } from './format';
import styles from './TrafficDetail.module.css';

export function TrafficDetail({ id }: { id: number | null }) {
  // A new entry opens masked again: revealing is a choice made for one entry.
  const [revealedId, setRevealedId] = useState<number | null>(null);
  const reveal = id !== null && revealedId === id;
  const { data: entry, error, isFetching } = useTrafficEntry(id, reveal);

  if (id === null) {
    return (
      <aside id="traffic-detail" className={`${styles.detail} panel`} aria-label="Entry details">
        <p className="muted">Select an entry (↑/↓ and Enter, or a click) to see its headers and bodies.</p>
      </aside>
    );
  }
  return (
    <aside id="traffic-detail" className={`${styles.detail} panel`} aria-label="Entry details">
      {error && (
        <p className="error" role="alert">
          {error.message}
        </p>
      )}
      {entry && (
        <>
          <div className="panel-head">
            <h2 className={styles.detailTitle}>
              <code>{entry.method}</code> <code>{entry.path}</code>
            </h2>
            <span className={styles.statusBadge} data-status={statusClass(entry.status)}>
              {statusText(entry)}
            </span>
          </div>
          {entry.fault && (
            <p className={styles.faultLine} role="note">
              ⚡ {faultText(entry.fault)}
            </p>
          )}
          <dl className={styles.detailFacts}>
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
                  <PlayerName id={entry.playerId} /> <code className="muted">{entry.playerId}</code>
                </dd>
              </>
            )}
            {entry.requestId && (
              <>
                <dt>Request id</dt>
                <dd>
                  <code>{entry.requestId}</code> <PairLink entry={entry} />
                </dd>
              </>
            )}
            <dt>URL</dt>
            <dd>
              <code data-testid="entry-url">{entry.url}</code>
            </dd>
          </dl>
          <div className={styles.detailActions}>
            <button
              type="button"
              aria-pressed={reveal}
              disabled={isFetching}
              onClick={() => setRevealedId(reveal ? null : id)}
            >
              Reveal secrets
            </button>
            <span className="muted">{entry.redacted ? 'tokens and secrets are masked' : 'secrets shown in full'}</span>
          </div>
          <CopyAs entry={entry} />
          {entry.revealNote && (
            <p className={styles.revealNote} role="status">
              {entry.revealNote}
            </p>
          )}
          <Violations entry={entry} />
          <Transitions entry={entry} />
          <Exchange
            title="Request"
            headers={entry.requestHeaders}
            body={entry.requestBody}
            headersCut={entry.cut?.requestHeaders}
            bodyCut={entry.cut?.requestBody}
          />
          <Exchange
            title="Response"
            headers={entry.responseHeaders}
            body={entry.responseBody}
            headersCut={entry.cut?.responseHeaders}
            bodyCut={entry.cut?.responseBody}
          />
        </>
      )}
    </aside>
  );
}

function PlayerName({ id }: { id: string }) {
  const name = useEngineState().data?.players.find((p) => p.id === id)?.name;
  return name ? <span>{name}</span> : null;
}

/** The other side of the same request: the server's entry for the player's, and back. */
function PairLink({ entry }: { entry: TrafficEntry }) {
  const exchanges = useRequestExchanges(entry.requestId).data;
  const other = exchanges ? otherSide(entry, exchanges) : null;
  if (!other || !entry.requestId) return null;
  return (
    <Link
      to="/traffic"
      search={{ request: entry.requestId, entry: other.id }}
      title="Both sides of this request, the other one open"
    >
      {pairSide(other)}
    </Link>
  );
}

/**
 * The request as curl and as fetch: what the log holds, so masked unless this entry was revealed
 * (a masked value stays as it is, docs/contract/console.md §9). A preview shows the text first.
 */
function CopyAs({ entry }: { entry: TrafficEntry }) {
  const request = { method: entry.method, url: entry.url, headers: entry.requestHeaders, body: entry.requestBody };
  const options = { reveal: entry.revealed };
  const curl = curlOf(request, options);
  return (
    <div className={styles.detailCopy}>
      <span className={styles.copyAs}>
        curl <CopyButton value={curl} label="Copy as curl" />
      </span>
      <span className={styles.copyAs}>
        fetch <CopyButton value={fetchOf(request, options)} label="Copy as fetch" />
      </span>
      <details className={styles.copyPreview}>
        <summary>Show as curl</summary>
        <pre aria-label="As curl" tabIndex={0}>
          {curl}
        </pre>
      </details>
    </div>
  );
}

/** What the server's developer must fix in this answer (docs/contract/console.md §5). */
function Violations({ entry }: { entry: TrafficEntry }) {
  if (entry.violations.length === 0) return null;
  return (
    <section className={styles.detailSection} aria-label="Contract violations">
      <h3>Contract violations in this answer</h3>
      <ul className={styles.entryViolations}>
        {entry.violations.map((v) => (
          <li key={v.id} data-level={v.level}>
            <Badge>{v.level}</Badge> <code>{v.rule}</code> {v.message}{' '}
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
    <section className={styles.detailSection} aria-label="Transitions caused">
      <h3>Player transitions this answer caused</h3>
      <ul className={styles.transitionLinks}>
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

/** A form's fields listed decoded: a form of thousands (the body can be 64 KiB) lists its first ones. */
const FORM_FIELDS_SHOWN = 100;

function Exchange({
  title,
  headers,
  body,
  headersCut,
  bodyCut,
}: {
  title: string;
  headers: Record<string, string>;
  body: string | null;
  headersCut?: PartCut;
  bodyCut?: PartCut;
}) {
  const names = Object.keys(headers);
  const text = prettyBody(body);
  const fields = formFields(body, headers);
  return (
    <section className={styles.detailSection} aria-label={title}>
      <h3>{title}</h3>
      {headersCut && <p className={styles.cutNote}>Headers {cutNote(headersCut)}</p>}
      {names.length > 0 ? (
        <DataTable dense className={styles.headerTable}>
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
        </DataTable>
      ) : (
        <p className="muted">No headers.</p>
      )}
      {bodyCut && <p className={styles.cutNote}>Body {cutNote(bodyCut)}</p>}
      {text ? (
        <pre className={styles.entryBody} aria-label={`${title} body`} tabIndex={0}>
          {text}
        </pre>
      ) : (
        <p className="muted">No body.</p>
      )}
      {fields && (
        <DataTable dense className={`${styles.headerTable} ${styles.formFields}`}>
          <caption className={styles.formCaption}>Form fields, decoded</caption>
          <tbody>
            {fields.slice(0, FORM_FIELDS_SHOWN).map(([name, value], index) => (
              <tr key={`${index}:${name}`}>
                <th scope="row">{name}</th>
                <td>
                  <code>{value}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
      {fields && fields.length > FORM_FIELDS_SHOWN && (
        <p className="muted">
          {(fields.length - FORM_FIELDS_SHOWN).toLocaleString('en-US')} more fields: the body above has them all.
        </p>
      )}
    </section>
  );
}
