/**
 * How a player (or curl) reaches this queue: the base URL for loadCloudQueue's queueBaseUrl and
 * the access token for its httpAuthorization, with the token's lifetime on the engine clock.
 */
import type { QueueSummary } from '../../../../main/engine/api/queue-types';
import { CopyButton } from '../../components/CopyButton';
import { useQueueCommand } from '../../queries/queues';
import { useEngineNow } from '../../stores/clock';
import { useNavStore } from '../../stores/nav';
import { useCommandDrafts } from '../player/command-drafts';
import { formatExpiry } from './format';

export function ConnectionInfo({ queue }: { queue: QueueSummary }) {
  const now = useEngineNow();
  const issue = useQueueCommand('queues.token.issue');
  const expired = now !== null && now >= queue.accessTokenExpiresAt;
  return (
    <dl className="connection-info">
      <div>
        <dt>Base URL</dt>
        <dd>
          <code aria-label="Queue base URL">{queue.queueBaseUrl}</code>
          <CopyButton value={queue.queueBaseUrl} label="Copy base URL" />
          <button type="button" onClick={() => loadOnPlayer(queue)} title="Opens the Player area with loadCloudQueue of this queue filled in for the player shown there">
            Load on a player…
          </button>
        </dd>
      </div>
      <div>
        <dt>Access token</dt>
        <dd>
          <code className="token" aria-label="Access token" title={queue.accessToken}>
            {queue.accessToken}
          </code>
          <CopyButton value={queue.accessToken} label="Copy access token" />
          <CopyButton value={queue.httpAuthorization} label="Copy Authorization header" />
          <span className="token-expiry" data-expired={expired || undefined}>
            {formatExpiry(queue.accessTokenExpiresAt, now)}
          </span>
          <button type="button" onClick={() => issue.mutate({ id: queue.id })} disabled={issue.isPending} title="Issue a new token; the current one stops working">
            New token
          </button>
          {issue.isError && <span className="error">{issue.error.message}</span>}
        </dd>
      </div>
    </dl>
  );
}

/** Hands the queue to the Player area's command bar as a loadCloudQueue draft, and opens it. */
function loadOnPlayer(queue: QueueSummary): void {
  useCommandDrafts.getState().offerLoad({ queueBaseUrl: queue.queueBaseUrl, httpAuthorization: queue.httpAuthorization });
  useNavStore.getState().open('player');
}
