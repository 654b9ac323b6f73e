/**
 * What the server's developer must fix: the contract violations the player found, as stored
 * (docs/contract/console.md §5), so a reload or a restart still shows them, followed live as the
 * player finds more. Each links to the traffic entry of the answer that broke the rule.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { PlayerViolation } from '@engine-api/player-types';
import { Badge } from '../../components/Badge';
import { useApi } from '../../api/context';
import { applyPushed } from '../../queries/pushed';
import { formatEngineClock } from '../../format/engine-time';
import styles from './Violations.module.css';

/** The newest shown: the list scrolls; the admin API has all the player keeps. */
const SHOWN = 200;

type Listed = { violations: PlayerViolation[] };

export function Violations({ playerId }: { playerId: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const queryKey = ['players', playerId, 'violations'];
  const { data, error } = useQuery({
    queryKey,
    queryFn: () => api.call('players.violations', { id: playerId, limit: SHOWN }),
  });
  // Hidden here only (they stay stored): this player's up to this id.
  const [hidden, setHidden] = useState<{ playerId: string; through: number } | null>(null);
  const hiddenThrough = hidden?.playerId === playerId ? hidden.through : 0;

  useEffect(() => {
    const key = ['players', playerId, 'violations'];
    return api.on('player.violation', (violation) => {
      if (violation.playerId !== playerId) return;
      applyPushed<Listed>(queryClient, key, (listed) =>
        listed && !listed.violations.some((v) => v.id === violation.id)
          ? { violations: [...listed.violations, violation].slice(-SHOWN) }
          : listed,
      );
    });
  }, [api, queryClient, playerId]);

  if (error) return <p className="error">{error.message}</p>;
  const violations = (data?.violations ?? []).filter((v) => v.id > hiddenThrough);
  if (violations.length === 0) return <p className="muted">No contract violations seen.</p>;
  return (
    <div className={styles.violationList}>
      <ul aria-label="Contract violations">
        {[...violations].reverse().map((v) => (
          <li key={v.id} data-level={v.level}>
            <code>{formatEngineClock(v.at)}</code> <Badge>{v.level}</Badge> <code>{v.rule}</code> {v.message}{' '}
            {v.trafficId !== null && (
              <Link
                to="/traffic"
                search={{ entry: v.trafficId }}
                aria-label={`The answer that broke ${v.rule} in the traffic log`}
              >
                traffic #{v.trafficId}
              </Link>
            )}
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={() => setHidden({ playerId, through: violations.at(-1)!.id })}
        title="Hides these here; they stay stored (GET /admin/api/players/{id}/violations)"
      >
        Clear
      </button>
    </div>
  );
}
