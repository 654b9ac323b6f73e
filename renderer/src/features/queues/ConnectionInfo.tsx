/**
 * How a player (or curl) reaches this queue: the base URL for loadCloudQueue's queueBaseUrl and
 * the access token for its httpAuthorization, with the token's lifetime on the engine clock.
 */
import { useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import type { QueueSummary } from '@engine-api/queue-types';
import { CopyButton } from '../../components/CopyButton';
import { useQueueCommand } from '../../queries/queues';
import { useEngineNow } from '../../stores/clock';
import { groupCoordinators, useEngineState } from '../../queries/engine-state';
import { useLoadOffer } from '../../stores/load-offer';
import { expiryText } from '../../format/span';
import styles from './ConnectionInfo.module.css';

export function ConnectionInfo({ queue }: { queue: QueueSummary }) {
  const now = useEngineNow();
  const issue = useQueueCommand('queues.token.issue');
  const expired = now !== null && now >= queue.accessTokenExpiresAt;
  return (
    <dl className={styles.connectionInfo}>
      <div>
        <dt>Base URL</dt>
        <dd>
          <code aria-label="Queue base URL">{queue.queueBaseUrl}</code>
          <CopyButton value={queue.queueBaseUrl} label="Copy base URL" />
          <LoadOnPlayer queue={queue} />
        </dd>
      </div>
      <div>
        <dt>Access token</dt>
        <dd>
          <code className={styles.token} aria-label="Access token" title={queue.accessToken}>
            {queue.accessToken}
          </code>
          <CopyButton value={queue.accessToken} label="Copy access token" />
          <CopyButton value={queue.httpAuthorization} label="Copy Authorization header" />
          <span className={styles.tokenExpiry} data-expired={expired || undefined}>
            {expiryText(queue.accessTokenExpiresAt, now)}
          </span>
          <button
            type="button"
            onClick={() => issue.mutate({ id: queue.id })}
            disabled={issue.isPending}
            title="Issue a new token; the current one stops working"
          >
            New token
          </button>
          {issue.isError && <span className="error">{issue.error.message}</span>}
        </dd>
      </div>
    </dl>
  );
}

/**
 * "Prepare a load on…": a player chosen here gets loadCloudQueue of this queue as its command bar's
 * draft, and the Player area opens on it (one Send away). The players are buttons that the toggle
 * shows next to it (next in Tab order); Escape folds them away.
 */
function LoadOnPlayer({ queue }: { queue: QueueSummary }) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const navigate = useNavigate();
  const players = groupCoordinators(useEngineState().data).flatMap(({ group, player }) =>
    player ? [{ id: player.id, group: group.name }] : [],
  );
  return (
    <>
      <button
        type="button"
        ref={toggle}
        aria-expanded={open}
        disabled={players.length === 0}
        onClick={() => setOpen(!open)}
        title="Choose a player: the Player area opens on it with loadCloudQueue of this queue filled in, one Send away"
      >
        Prepare a load on…
      </button>
      {open && (
        <span
          className={styles.loadOnPlayer}
          role="group"
          aria-label="Prepare a load on"
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            setOpen(false);
            toggle.current?.focus();
          }}
        >
          {players.map((p) => (
            <button key={p.id} type="button" onClick={() => loadOnPlayer(queue, p.id, navigate)}>
              {p.group}
            </button>
          ))}
        </span>
      )}
    </>
  );
}

/** Offers the queue to the player's command bar and opens the Player area on that player. */
function loadOnPlayer(queue: QueueSummary, playerId: string, navigate: ReturnType<typeof useNavigate>): void {
  useLoadOffer.getState().offer({
    playerId,
    queueName: queue.name,
    queueBaseUrl: queue.queueBaseUrl,
    httpAuthorization: queue.httpAuthorization,
    at: performance.now(),
  });
  void navigate({ to: '/player', search: { player: playerId } });
}
