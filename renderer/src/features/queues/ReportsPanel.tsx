/** timePlayed reports the queue received (docs/contract/platform.md §2.3): for the chosen item, or for the whole queue. */
import { ReportsTable } from '../../components/ReportsTable';
import { useItemReports } from '../../queries/queues';

export function ReportsPanel({ queueId, itemId }: { queueId: string; itemId: string | null }) {
  const { data, error } = useItemReports(queueId, itemId);
  const reports = data ?? [];
  return (
    <section aria-label="timePlayed reports">
      <p className="muted">
        {itemId
          ? `Reports for ${itemId} (select another item to see its own).`
          : 'Reports for the whole queue, newest first. Select an item to see only its reports.'}
      </p>
      {error && <p className="error">{error.message}</p>}
      {reports.length === 0 ? <p className="muted">None received yet.</p> : <ReportsTable reports={reports} />}
    </section>
  );
}
