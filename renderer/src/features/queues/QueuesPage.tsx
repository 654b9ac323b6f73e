/** The live queue editor of the reference cloud queue server (docs/contract/console.md §4, §7). */
import { useState } from 'react';
import { useQueueList } from '../../queries/queues';
import { QueueEditor } from './QueueEditor';
import { QueueSidebar } from './QueueSidebar';
import './queues.css';

export function QueuesPage() {
  const { data: queues = [], error } = useQueueList();
  const [chosen, setChosen] = useState<string | null>(null);
  // The chosen queue, or the first one when none is chosen (or the chosen one is gone).
  const queue = queues.find((q) => q.id === chosen) ?? queues[0] ?? null;

  return (
    <section className="page queues-page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Queues</h1>
      </header>
      {error && <p className="error">{error.message}</p>}
      <div className="queues-layout">
        <QueueSidebar queues={queues} selectedId={queue?.id ?? null} onSelect={setChosen} />
        {queue ? (
          <QueueEditor key={queue.id} queue={queue} onDeleted={() => setChosen(null)} />
        ) : (
          <div className="placeholder">
            <p>The reference cloud queue server serves any number of queues, each at its own base URL with its own access token. Create one, or import a queue file, to start.</p>
          </div>
        )}
      </div>
    </section>
  );
}
