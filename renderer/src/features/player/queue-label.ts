/** How the command bar's list names a console queue. */
import type { QueueSummary } from '@engine-api/queue-types';

/** Its name and size, and its id when another queue has the same name (two "Demo mix" looked alike). */
export function queueLabel(queue: QueueSummary, all: readonly QueueSummary[]): string {
  const shared = all.some((other) => other.id !== queue.id && other.name === queue.name);
  return `${queue.name} (${queue.itemCount})${shared ? ` · ${queue.id}` : ''}`;
}
