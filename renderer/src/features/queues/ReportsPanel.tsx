/** timePlayed reports the queue received (docs/contract/platform.md §2.3): for the chosen item, or for the whole queue. */
import { DataTable } from '../../components/DataTable';
import { formatEngineMoment } from '../../format/engine-time';
import { useItemReports } from '../../queries/queues';
import { useEngineDay } from '../../stores/clock';
import { formatDuration } from './format';
import { reportActions } from './report-marks';
import styles from './queues.module.css';

export function ReportsPanel({ queueId, itemId }: { queueId: string; itemId: string | null }) {
  const { data, error } = useItemReports(queueId, itemId);
  const today = useEngineDay();
  const reports = data ?? [];
  return (
    <section aria-label="timePlayed reports">
      <p className="muted">
        {itemId
          ? `Reports for ${itemId} (select another item to see its own).`
          : 'Reports for the whole queue, newest first. Select an item to see only its reports.'}
      </p>
      {error && <p className="error">{error.message}</p>}
      {reports.length === 0 ? (
        <p className="muted">None received yet.</p>
      ) : (
        <DataTable className={styles.reportsTable}>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Item</th>
              <th scope="col">Player</th>
              <th scope="col">Type</th>
              <th scope="col">Played</th>
              <th scope="col">Position</th>
            </tr>
          </thead>
          <tbody>
            {reports.map((r) => (
              <tr key={r.seq}>
                <td>{formatEngineMoment(r.receivedAt, today)}</td>
                <td>
                  <code>{r.itemId}</code>
                </td>
                <td>{r.playerId ?? '—'}</td>
                <td>
                  {r.type}
                  {reportActions(r.report)
                    .map((action) => ` (${action})`)
                    .join('')}
                </td>
                <td>{formatDuration(r.report.durationPlayedMillis)}</td>
                <td>{formatDuration(r.report.positionMillis)}</td>
              </tr>
            ))}
          </tbody>
        </DataTable>
      )}
    </section>
  );
}
