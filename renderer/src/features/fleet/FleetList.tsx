/**
 * The kept fleets, newest first (the one playing and the last ten ended): each one's state in a
 * word, its players and when it started. One Tab stop (the shown fleet); ↑/↓, Home and End move
 * to another and show it. A fleet started elsewhere (the admin API, a script) is listed as it plays.
 */
import { useState } from 'react';
import type { FleetListItem } from '@engine-api/fleet-types';
import { Badge } from '../../components/Badge';
import { keptListClass, keptTabIndex, onKeptListKeyDown } from '../../components/kept-list';
import { plural } from '../../format/plural';
import { startedText } from '../../format/wall-time';
import { fleetState } from './fleet-list';
import styles from './FleetList.module.css';

export interface FleetListProps {
  fleets: readonly FleetListItem[];
  /** Not read yet: said as such, not as "None yet". */
  loading?: boolean;
  shownId: string | null;
  onShow(id: string): void;
}

export function FleetList({ fleets, loading = false, shownId, onShow }: FleetListProps) {
  // "Today" for the times, taken once: a list read across midnight still reads right enough.
  const [now] = useState(() => Date.now());

  if (fleets.length === 0 && loading) return <p className="muted">Reading the kept fleets…</p>;
  if (fleets.length === 0)
    return (
      <p className="muted">
        None yet: each fleet started is kept here, in memory, until ten more ended or the console stops.
      </p>
    );
  return (
    <ul
      className={`${keptListClass} ${styles.fleets}`}
      role="listbox"
      aria-label="Kept fleets"
      onKeyDown={(event) => onKeptListKeyDown(event, fleets, shownId, onShow)}
    >
      {fleets.map((fleet, index) => {
        const shown = fleet.id === shownId;
        const state = fleetState(fleet);
        return (
          <li
            key={fleet.id}
            role="option"
            aria-selected={shown}
            tabIndex={keptTabIndex(fleets, shownId, index)}
            data-fleet-id={fleet.id}
            data-status={fleet.status}
            onClick={() => onShow(fleet.id)}
          >
            <Badge tone={state.tone} className={styles.state}>
              {state.word}
            </Badge>
            <span className={styles.id}>{fleet.id}</span>
            <span className={styles.players}>{plural(fleet.players, 'player')}</span>
            <span className={styles.when}>{startedText(fleet.startedAt, now)}</span>
          </li>
        );
      })}
    </ul>
  );
}
