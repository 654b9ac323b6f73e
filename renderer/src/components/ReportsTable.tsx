/**
 * The timePlayed reports a queue stored (docs/contract/platform.md §2.3), in one table wherever
 * they show (a queue's Reports tab, the Player's reports panel), so the columns read in one order:
 * when it came, for which item, from which player, what it says, how long was played, where.
 */
import type { TimePlayedRecordView } from '@engine-api/queue-types';
import { formatEngineMoment } from '../format/engine-time';
import { playTime, reportActions } from '../format/report-marks';
import { useEngineDay } from '../stores/clock';
import { DataTable } from './DataTable';
import styles from './ReportsTable.module.css';

export interface ReportsTableProps {
  reports: readonly TimePlayedRecordView[];
  /** How a player is named (a household player's name); its id is the cell's title. */
  playerName?(playerId: string): string;
  /**
   * Every report is one player's (the Player page's panel): no Player column, which said the same
   * name on every row and pushed Position out of a narrow panel (audit: cut to "Po" at 1024 px).
   */
  onePlayer?: boolean;
  /** Scroll in a region of this name, compact, as a panel beside others does. */
  scroll?: string;
}

export function ReportsTable({ reports, playerName = (id) => id, onePlayer = false, scroll }: ReportsTableProps) {
  const today = useEngineDay();
  return (
    <DataTable className={styles.reports} dense={scroll !== undefined} scroll={scroll}>
      <thead>
        <tr>
          <th scope="col">Received</th>
          <th scope="col">Item</th>
          {!onePlayer && <th scope="col">Player</th>}
          <th scope="col">Type</th>
          <th scope="col">Played</th>
          <th scope="col">Position</th>
        </tr>
      </thead>
      <tbody>
        {reports.map((r) => (
          <tr key={r.seq} data-report-type={r.type}>
            <td>{formatEngineMoment(r.receivedAt, today)}</td>
            <td>
              <code>{r.itemId}</code>
            </td>
            {!onePlayer && (
              <td title={r.playerId ?? undefined}>{r.playerId === null ? '—' : playerName(r.playerId)}</td>
            )}
            <td>
              {r.type}
              {reportActions(r.report)
                .map((action) => ` (${action})`)
                .join('')}
            </td>
            <td>{playTime(r.report.durationPlayedMillis)}</td>
            <td>{playTime(r.report.positionMillis)}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}
