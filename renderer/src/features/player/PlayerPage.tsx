/**
 * The player panel: pick a group's player, watch its state on the diagram and the timeline of
 * transitions with their causes, see now playing and the window, press its buttons, and send
 * control commands through the real control API.
 */
import { useState } from 'react';
import type { PlayerMachineState } from '../../../../main/engine/api/player-types';
import { useEngineState } from '../../queries/engine-state';
import { HouseholdEditor } from '../household/HouseholdEditor';
import { usePlayerDetail, usePlayerTransitions, useTransitionTable } from '../../queries/players';
import { CommandBar } from './CommandBar';
import { NowPlaying } from './NowPlaying';
import { PlayerButtons } from './PlayerButtons';
import { StateDiagram } from './StateDiagram';
import { Timeline } from './Timeline';
import { Violations } from './Violations';
import { WindowList } from './WindowList';
import './player.css';

export function PlayerPage() {
  const { data: state } = useEngineState();
  const coordinators = state ? state.groups.map((g) => ({ group: g, player: state.players.find((p) => p.id === g.coordinatorId) })) : [];
  const [chosen, setChosen] = useState<string | null>(null);
  const selected = chosen ?? coordinators[0]?.player?.id ?? null;
  const detail = usePlayerDetail(selected).data;
  const transitions = usePlayerTransitions(selected).data ?? [];
  const table = useTransitionTable().data ?? [];

  return (
    <section className="page player-page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Player</h1>
      </header>
      <div className="player-tabs" role="tablist" aria-label="Players">
        {coordinators.map(({ group, player }) =>
          player ? (
            <button key={group.id} role="tab" type="button" aria-selected={player.id === selected} onClick={() => setChosen(player.id)}>
              <span>{group.name}</span>
              <span className="badge" data-state={player.playbackState}>
                {player.suspended ? 'SUSPENDED' : player.playbackState.replace('PLAYBACK_STATE_', '')}
              </span>
            </button>
          ) : null,
        )}
      </div>
      {detail && (
        <div className="player-grid">
          <section className="panel" aria-label="State">
            <div className="panel-head">
              <h2>State</h2>
              <span className="state-badge" data-testid="player-state" data-state={detail.state}>
                {detail.state}
              </span>
            </div>
            <StateDiagram table={table} state={detail.state as PlayerMachineState} last={transitions.at(-1)} />
            {detail.lastError && (
              <p className="answer bad" role="alert">
                Last error: {detail.lastError.message}
              </p>
            )}
          </section>
          <section className="panel" aria-label="Now playing">
            <div className="panel-head">
              <h2>Now playing</h2>
              <PlayerButtons detail={detail} />
            </div>
            <NowPlaying detail={detail} />
            <WindowList detail={detail} />
          </section>
          <section className="panel wide" aria-label="Command bar">
            <div className="panel-head">
              <h2>Control API</h2>
              <span className="muted">sent as an integration would, with the console's own token</span>
            </div>
            <CommandBar key={detail.id} detail={detail} />
          </section>
          <section className="panel wide" aria-label="Timeline">
            <div className="panel-head">
              <h2>Transitions</h2>
            </div>
            <Timeline transitions={transitions} />
          </section>
          <section className="panel wide" aria-label="Household">
            <div className="panel-head">
              <h2>Household</h2>
              <span className="muted">players and groups; one simulated player per group</span>
            </div>
            {state && <HouseholdEditor state={state} />}
          </section>
          <section className="panel wide" aria-label="Contract violations">
            <div className="panel-head">
              <h2>Contract violations</h2>
            </div>
            <Violations playerId={detail.id} />
          </section>
        </div>
      )}
    </section>
  );
}
