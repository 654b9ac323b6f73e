/**
 * The live queue editor of the reference cloud queue server (docs/contract/console.md §4, §7).
 * The queue open is the address (`#/queues?queue=<id>`), so a reload or a link opens it.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useQueueList } from '../../queries/queues';
import { QueueEditor } from './QueueEditor';
import { QueueSidebar } from './QueueSidebar';
import styles from './QueuesPage.module.css';

const route = getRouteApi('/queues');

export function QueuesPage() {
  const { data: queues = [], error, isPending } = useQueueList();
  const chosen = route.useSearch().queue;
  const navigate = route.useNavigate();
  // Chosen here: it replaces the address (Back leaves the area rather than stepping through queues).
  const setChosen = (queue: string | null) => void navigate({ search: { queue: queue ?? undefined }, replace: true });
  // The chosen queue, or the first one when none is chosen (or the chosen one is gone).
  const queue = queues.find((q) => q.id === chosen) ?? queues[0] ?? null;

  return (
    <section className={styles.queuesPage} aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Queues</h1>
      </header>
      {error && <p className="error">{error.message}</p>}
      <div className={styles.queuesLayout}>
        <QueueSidebar queues={queues} loading={isPending} selectedId={queue?.id ?? null} onSelect={setChosen} />
        {queue ? (
          <QueueEditor key={queue.id} queue={queue} onDeleted={() => setChosen(null)} />
        ) : (
          <div className="placeholder">
            <p>
              The reference cloud queue server serves any number of queues, each at its own base URL with its own access
              token. Create one, or import a queue file, to start.
            </p>
          </div>
        )}
      </div>
    </section>
  );
}
