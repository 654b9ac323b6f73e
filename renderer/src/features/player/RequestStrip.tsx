/**
 * The player's requests, newest first, one row per request (the player's side and the console
 * server's side folded, request-rows.ts): reason, status, retry, the fault that fired with its
 * rule, latency. Each row links to its traffic entry and to the transitions its answer caused.
 */
import { Link } from '@tanstack/react-router';
import type { PlayerTransition } from '@engine-api/player-types';
import { DataTable } from '../../components/DataTable';
import { formatEngineClock } from '../../format/engine-time';
import type { RequestsShown } from '../../router/search';
import { entryOf, type RequestRow } from './request-rows';
import styles from './RequestStrip.module.css';

const SHOWN = 60;

/**
 * No column names the player: every row is the player the tab names (a column of one name doubled
 * each row's height at 1440 px and cut the links off at 1024, outsider).
 */
export function RequestStrip({
  rows,
  transitions,
  playerId,
  rowsShown = 'all',
  loading = false,
}: {
  rows: RequestRow[];
  transitions: PlayerTransition[];
  playerId: string;
  /** Which rows these are (the address's choice, kept by the links to transitions); `failed`: an empty strip says no failure, not no request. */
  rowsShown?: RequestsShown;
  /** The traffic is not read yet: said as such, not as "No requests". */
  loading?: boolean;
}) {
  if (rows.length === 0)
    return loading ? (
      <p className="muted" role="status">
        Reading the newest traffic…
      </p>
    ) : (
      <p className="muted">
        {rowsShown === 'failed'
          ? 'No failed or faulted request of this player among the newest traffic.'
          : 'No requests of this player among the newest traffic.'}
      </p>
    );
  const caused = new Map<string, PlayerTransition[]>();
  for (const t of transitions) if (t.requestId) caused.set(t.requestId, [...(caused.get(t.requestId) ?? []), t]);
  return (
    <DataTable dense scroll="Player requests">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">Request</th>
          <th scope="col">Status</th>
          <th scope="col">Retry</th>
          <th scope="col">Fault</th>
          <th scope="col">Latency</th>
          <th scope="col">Links</th>
        </tr>
      </thead>
      <tbody>
        {rows.slice(0, SHOWN).map((row) => (
          <tr
            key={row.key}
            data-request-id={row.requestId ?? undefined}
            data-status={row.status ?? 'none'}
            data-fault={row.fault ? row.fault.ruleId : undefined}
            data-sides={[row.client && 'player', row.server && 'server'].filter(Boolean).join(' ')}
          >
            <td>
              <code>{formatEngineClock(row.at)}</code>
            </td>
            <td className={styles.nowrap}>
              <code>{`${row.method === 'GET' ? '' : `${row.method} `}${lastSegment(row.path)}`}</code>
              {row.reason && <span className="muted">{` ${row.reason}`}</span>}
            </td>
            <td className={row.status === null || row.status >= 400 ? styles.bad : undefined}>
              {row.status ?? row.client?.outcome ?? 'none'}
            </td>
            <td>{row.retry ? `#${row.retry}` : ''}</td>
            <td>
              {row.fault ? (
                <span
                  title={row.fault.ruleId}
                >{`${row.fault.label ?? row.fault.ruleId} (${row.fault.status ?? row.fault.action})`}</span>
              ) : (
                ''
              )}
            </td>
            <td className={styles.nowrap}>{row.latencyMs === null ? '' : `${row.latencyMs} ms`}</td>
            <td className={styles.links}>
              <Link to="/traffic" search={{ entry: entryOf(row) }} aria-label={`Traffic entry ${entryOf(row)}`}>
                #{entryOf(row)}
              </Link>
              {row.requestId &&
                (caused.get(row.requestId) ?? []).map((t) => {
                  const shown = t.from === t.to ? t.transition : `→ ${t.to}`;
                  // The name starts with what the link shows, so that a voice user can say it.
                  return (
                    <Link
                      key={t.seq}
                      to="/player"
                      search={{
                        player: playerId,
                        transition: t.seq,
                        requests: rowsShown === 'all' ? undefined : rowsShown,
                      }}
                      aria-label={`${shown}: transition ${t.seq}, ${t.from} to ${t.to}`}
                      title={t.transition}
                    >
                      {shown}
                    </Link>
                  );
                })}
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

/** `/queues/q1/v2.3/itemWindow` → `/itemWindow`: the strip is narrow, the entry has the whole URL (GET goes without saying). */
function lastSegment(path: string): string {
  const clean = path.split('?')[0] ?? path;
  return `/${clean.split('/').filter(Boolean).at(-1) ?? ''}`;
}
