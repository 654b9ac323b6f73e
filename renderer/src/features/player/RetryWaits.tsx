/**
 * Requests of the player that failed and wait for their next try (docs/contract/platform.md §7.2, §7.4): a 503 storm
 * shows here while its retries run, each with the retry to come, when it goes and why the last
 * try failed, not only once the tries are used up.
 */
import type { RetryWait } from '@engine-api/player-types';
import { Badge } from '../../components/Badge';
import { useEngineNow } from '../../stores/clock';
import { formatEngineClock } from '../../format/engine-time';
import styles from './RetryWaits.module.css';

export function RetryWaits({ waits }: { waits: RetryWait[] }) {
  const now = useEngineNow();
  if (waits.length === 0) return null;
  return (
    <ul className={styles.retryWaits} aria-label="Retries waiting">
      {waits.map((wait) => (
        <li key={wait.id}>
          <Badge tone="warn">
            retry {wait.retry}/{wait.of}
          </Badge>
          <code>
            {wait.endpoint}
            {wait.reason ? ` reason=${wait.reason}` : ''}
          </code>
          {/* The rule it follows (docs/contract/platform.md): §7.4 for background requests, §7.2's table for the others. */}
          <span className="muted">{wait.background ? '§7.4, in the background' : '§7.2'}</span>
          <span>
            at <code>{formatEngineClock(wait.at)}</code>
            {now !== null && wait.at > now ? ` (in ${Math.ceil((wait.at - now) / 1_000)} s)` : ''}
          </span>
          <span className="muted">after {wait.failure.message}</span>
        </li>
      ))}
    </ul>
  );
}
