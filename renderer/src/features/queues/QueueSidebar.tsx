/** The queues of the server: pick one, create one, or import one from a JSON file. */
import { useRef, useState, type FormEvent } from 'react';
import { QUEUE_NAME_MAX_CHARS, type QueueSummary } from '@engine-api/queue-types';
import { FileButton } from '../../components/FileButton';
import { useQueueCommand } from '../../queries/queues';
import { plural } from '../../format/plural';
import { usePaletteActions } from '../../stores/palette-actions';
import { useFileImport } from './useFileImport';
import styles from './QueueSidebar.module.css';

export interface QueueSidebarProps {
  queues: QueueSummary[];
  /** Not read yet: said as such, not as "No queues yet". */
  loading?: boolean;
  selectedId: string | null;
  onSelect(id: string): void;
}

export function QueueSidebar({ queues, loading = false, selectedId, onSelect }: QueueSidebarProps) {
  const [name, setName] = useState('');
  const create = useQueueCommand('queues.create');
  const importer = useFileImport(async (file) => {
    const created = await create.mutateAsync({
      name: file.name as string | undefined,
      items: file.items as never,
      playbackPolicies: file.playbackPolicies as never,
      reports: file.reports as never,
      container: file.container as never,
    });
    onSelect(created.id);
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name.trim() ? { name: name.trim() } : {}, {
      onSuccess: (created) => {
        setName('');
        onSelect(created.id);
      },
    });
  };
  const importInput = useRef<HTMLInputElement>(null);
  usePaletteActions({
    'queues.create': () => submit({ preventDefault: () => undefined } as FormEvent),
    'queues.import': () => importInput.current?.click(),
  });

  return (
    <aside className={styles.queueSidebar} aria-label="Queues">
      <form className={styles.newQueue} onSubmit={submit}>
        <input
          aria-label="New queue name"
          placeholder="New queue name"
          // The engine's own limit: past it the name was refused in the engine's words (audit-ui W11).
          maxLength={QUEUE_NAME_MAX_CHARS}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" className="primary" disabled={create.isPending}>
          Create queue
        </button>
      </form>
      <FileButton
        label="Import queue…"
        busyLabel="Importing…"
        busy={importer.busy}
        title="Create a queue from a JSON file (an export of this console)"
        inputRef={importInput}
        onChange={importer.onChange}
      />
      {(importer.error ?? (create.isError && !importer.busy ? create.error.message : null)) && (
        <p className="error" role="alert">
          {importer.error ?? create.error?.message}
        </p>
      )}
      <ul className={styles.queueList}>
        {queues.map((queue) => (
          <li key={queue.id}>
            <button
              type="button"
              className={styles.queueLink}
              aria-current={queue.id === selectedId ? 'true' : undefined}
              onClick={() => onSelect(queue.id)}
            >
              <span className={styles.queueName} title={queue.name}>
                {queue.name}
              </span>
              <span className="muted">
                {plural(queue.itemCount, 'item')} · v{queue.queueVersion}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {queues.length === 0 && <p className="muted">{loading ? 'Reading the queues…' : 'No queues yet.'}</p>}
    </aside>
  );
}
