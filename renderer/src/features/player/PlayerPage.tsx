/**
 * The player panel: pick a group's player, watch its state on the diagram and the timeline of
 * transitions with their causes, see now playing and the window, press its buttons, and send
 * control commands through the real control API. The player shown is the address:
 * `#/player?player=<id>&transition=<seq>` (the traffic log's links) opens a player with one
 * transition marked and scrolled into view.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useEffect } from 'react';
import type { PlayerDetail, PlayerMachineState } from '@engine-api/player-types';
import { onRovingKeyDown, rovingTabIndex } from '../../components/roving';
import { Timeline } from '../../components/Timeline';
import { groupCoordinators, useEngineState } from '../../queries/engine-state';
import { usePlayerDetail, usePlayerTransitions, useTransitionTable } from '../../queries/players';
import { CommandBar } from './CommandBar';
import { HouseholdEditor } from './HouseholdEditor';
import { NowPlaying } from './NowPlaying';
import { PlayerButtons } from './PlayerButtons';
import { RetryWaits } from './RetryWaits';
import { StateDiagram } from './StateDiagram';
import { formatEngineClock, formatEngineTime } from '../../format/engine-time';
import { Violations } from './Violations';
import { WindowList } from './WindowList';
import './player.css';

const route = getRouteApi('/player');

export function PlayerPage() {
  const { data: state } = useEngineState();
  const coordinators = groupCoordinators(state);
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const selected = search.player ?? coordinators[0]?.player?.id ?? null;
  const detail = usePlayerDetail(selected).data;
  const transitionsQuery = usePlayerTransitions(selected);
  const transitions = transitionsQuery.data ?? [];
  const table = useTransitionTable().data ?? [];
  const marked = search.transition ?? null;
  const markedShown = marked !== null && transitions.some((t) => t.seq === marked);

  useEffect(() => {
    if (markedShown) document.getElementById(`transition-${marked}`)?.scrollIntoView({ block: 'center' });
  }, [marked, markedShown]);
  // Another player, chosen here: it replaces the address (Back leaves the area), and drops the mark.
  const choose = (playerId: string) => void navigate({ search: { player: playerId }, replace: true });

  const firstPlayer = coordinators.find((c) => c.player)?.player;
  return (
    <section className="page player-page" aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Player</h1>
      </header>
      <div className="player-tabs" role="tablist" aria-label="Players" onKeyDown={onRovingKeyDown}>
        {/* A group without a coordinator shows no tab: the row's first stop is the first that does. */}
        {coordinators.map(({ group, player }) =>
          player ? (
            <button
              key={group.id}
              id={`player-tab-${player.id}`}
              role="tab"
              type="button"
              aria-selected={player.id === selected}
              aria-controls={player.id === selected ? 'player-panel' : undefined}
              tabIndex={rovingTabIndex(player.id === selected, player === firstPlayer, coordinators.some((c) => c.player?.id === selected))}
              onClick={() => choose(player.id)}
            >
              <span>{group.name}</span>
              <span className="badge" data-state={player.playbackState}>
                {player.suspended ? 'SUSPENDED' : player.playbackState.replace('PLAYBACK_STATE_', '')}
              </span>
            </button>
          ) : null,
        )}
      </div>
      {detail && (
        <div className="player-grid" id="player-panel" role="tabpanel" aria-labelledby={`player-tab-${detail.id}`}>
          <section className="panel" aria-label="State">
            <div className="panel-head">
              <h2>State</h2>
              <span className="state-badge" data-testid="player-state" data-state={detail.state}>
                {detail.state}
              </span>
            </div>
            <StateDiagram table={table} state={detail.state as PlayerMachineState} last={transitions.at(-1)} />
            <RetryWaits waits={detail.retrying} />
            {detail.lastError && <LastError error={detail.lastError} since={transitions.at(-1)?.at} />}
          </section>
          <section className="panel" aria-label="Now playing">
            <div className="panel-head">
              <h2>Now playing</h2>
              <PlayerButtons detail={detail} />
            </div>
            <NowPlaying detail={detail} />
            <WindowList detail={detail} />
          </section>
          <section className="panel wide command-panel" aria-label="Command bar">
            <div className="panel-head">
              <h2>Control API</h2>
              <span className="muted">sent as an integration would, with the console's own token</span>
            </div>
            <CommandBar key={detail.id} detail={detail} />
          </section>
          <section className="panel wide timeline-panel" aria-label="Timeline">
            <div className="panel-head">
              <h2>Transitions</h2>
            </div>
            {marked !== null && !markedShown && transitionsQuery.isFetched && (
              <p className="muted" role="status">
                Transition #{marked} is not among the {transitions.length} latest shown here.
              </p>
            )}
            <Timeline transitions={transitions} marked={marked} />
          </section>
          <section className="panel wide household-panel" aria-label="Household">
            <div className="panel-head">
              <h2>Household</h2>
              <span className="muted">players and groups; one simulated player per group</span>
            </div>
            {state && <HouseholdEditor state={state} />}
          </section>
          <section className="panel wide violations-panel" aria-label="Contract violations">
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

/**
 * The player's last error: an alert while it is the latest news, a quiet line once the player has
 * moved on (a transition after it), so a storm that passed does not shout under PLAYING.
 */
function LastError({ error, since }: { error: NonNullable<PlayerDetail['lastError']>; since: number | undefined }) {
  const when = <code title={formatEngineTime(error.at, { millis: true })}>{formatEngineClock(error.at)}</code>;
  if (since !== undefined && since > error.at) {
    return (
      <p className="answer muted" data-testid="last-error" data-stale="true">
        Earlier error at {when}, before the last transition: {error.message}
      </p>
    );
  }
  return (
    <p className="answer bad" role="alert" data-testid="last-error">
      Last error at {when}: {error.message}
    </p>
  );
}
