/**
 * The household: add, rename and remove players; group players under a coordinator and ungroup
 * them. The player runtime runs one player per group, so grouping changes what plays where.
 */
import { useState, type FormEvent } from 'react';
import type { EngineStateView, PlayerView } from '@engine-api/types';
import { PLAYER_NAME_MAX_CHARS } from '@engine-api/player-types';
import { Badge } from '../../components/Badge';
import { DataTable } from '../../components/DataTable';
import { useHouseholdCommand } from '../../queries/household';
import styles from './HouseholdEditor.module.css';

export function HouseholdEditor({ state }: { state: EngineStateView }) {
  const [name, setName] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [coordinator, setCoordinator] = useState<string>('');
  const create = useHouseholdCommand('players.create');
  const group = useHouseholdCommand('groups.create');
  const ungroup = useHouseholdCommand('groups.delete');
  const failure = [create, group, ungroup].find((m) => m.isError)?.error?.message;

  const add = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    create.mutate({ name: name.trim() }, { onSuccess: () => setName('') });
  };

  const chosenIds = state.players.filter((p) => chosen.has(p.id)).map((p) => p.id);
  const lead = chosenIds.includes(coordinator) ? coordinator : chosenIds[0];
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setChosen(next);
  };

  return (
    // Not a landmark of its own: the Player page's "Household" region around it is.
    <div className={styles.household}>
      <h2>{state.households.map((h) => h.name).join(', ')}</h2>
      <DataTable className={styles.table}>
        <thead>
          <tr>
            <th scope="col">
              <span className="sr-only">Choose for grouping</span>
            </th>
            <th scope="col">Player</th>
            <th scope="col">Group</th>
            <th scope="col">State</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {state.players.map((player) => {
            const playerGroup = state.groups.find((g) => g.id === player.groupId);
            return (
              <tr key={player.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`Choose ${player.name}`}
                    checked={chosen.has(player.id)}
                    onChange={() => toggle(player.id)}
                  />
                </td>
                <td>
                  <PlayerName player={player} />
                </td>
                <td>
                  {playerGroup?.name}
                  {playerGroup?.coordinatorId === player.id && playerGroup.playerIds.length > 1 && (
                    <Badge tone="info" className={styles.coordinator}>
                      coordinator
                    </Badge>
                  )}
                </td>
                <td>
                  <Badge state={player.playbackState}>{player.playbackState.replace('PLAYBACK_STATE_', '')}</Badge>
                </td>
                <td>
                  <RemovePlayer player={player} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </DataTable>

      <div className={styles.actions}>
        <form onSubmit={add} className={styles.form}>
          <input
            aria-label="New player name"
            placeholder="New player name"
            // The engine's own limit: past it the name was refused in the engine's words (audit-ui W11).
            maxLength={PLAYER_NAME_MAX_CHARS}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit" disabled={create.isPending || !name.trim()}>
            Add player
          </button>
        </form>
        <div className={styles.form} role="group" aria-label="Group the chosen players">
          <label>
            Coordinator{' '}
            <select
              aria-label="Coordinator"
              value={lead ?? ''}
              onChange={(event) => setCoordinator(event.target.value)}
              disabled={chosenIds.length === 0}
            >
              {chosenIds.map((id) => (
                <option key={id} value={id}>
                  {state.players.find((p) => p.id === id)?.name}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            disabled={chosenIds.length < 2 || group.isPending}
            onClick={() =>
              group.mutate({ playerIds: chosenIds, coordinatorId: lead }, { onSuccess: () => setChosen(new Set()) })
            }
          >
            Group chosen
          </button>
        </div>
      </div>

      <ul className={styles.groupList} aria-label="Groups">
        {state.groups.map((g) => (
          <li key={g.id}>
            <span>{g.name}</span>
            <code className="muted">{g.id}</code>
            {g.playerIds.length > 1 && (
              <button
                type="button"
                onClick={() => ungroup.mutate({ id: g.id })}
                disabled={ungroup.isPending}
                aria-label={`Ungroup ${g.name}`}
              >
                Ungroup
              </button>
            )}
          </li>
        ))}
      </ul>
      {failure && (
        <p className="error" role="alert">
          {failure}
        </p>
      )}
    </div>
  );
}

function PlayerName({ player }: { player: PlayerView }) {
  const [draft, setDraft] = useState<string | null>(null);
  const rename = useHouseholdCommand('players.update');
  if (draft === null) {
    return (
      <button
        type="button"
        className={styles.playerName}
        title="Rename"
        aria-label={`Rename ${player.name}`}
        onClick={() => setDraft(player.name)}
      >
        {player.name}
      </button>
    );
  }
  return (
    <form
      className={styles.form}
      onSubmit={(event) => {
        event.preventDefault();
        if (draft.trim() && draft.trim() !== player.name)
          rename.mutate({ id: player.id, name: draft.trim() }, { onSuccess: () => setDraft(null) });
        else setDraft(null);
      }}
    >
      <input
        aria-label={`New name for ${player.name}`}
        autoFocus
        maxLength={PLAYER_NAME_MAX_CHARS}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => event.key === 'Escape' && setDraft(null)}
      />
      <button type="submit">Save</button>
      {rename.isError && <span className="error">{rename.error.message}</span>}
    </form>
  );
}

function RemovePlayer({ player }: { player: PlayerView }) {
  const [confirming, setConfirming] = useState(false);
  const remove = useHouseholdCommand('players.delete');
  return confirming ? (
    <span className={styles.form}>
      <button
        type="button"
        className="danger"
        onClick={() => remove.mutate({ id: player.id })}
        disabled={remove.isPending}
      >
        Remove {player.name}
      </button>
      <button type="button" onClick={() => setConfirming(false)}>
        Keep
      </button>
    </span>
  ) : (
    <button type="button" aria-label={`Remove ${player.name}…`} onClick={() => setConfirming(true)}>
      Remove…
    </button>
  );
}
