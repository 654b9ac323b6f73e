/**
 * The player panel: pick a group's player, watch its state on the diagram and the timeline of
 * transitions with their causes, see now playing and the window, press its buttons, and send
 * control commands through the real control API. The player shown is the address:
 * `#/player?player=<id>&transition=<seq>` (the traffic log's links) opens a player with one
 * transition marked and scrolled into view.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { PlayerDetail, PlayerMachineState, PlayerTransition } from '@engine-api/player-types';
import { Badge } from '../../components/Badge';
import { onRovingKeyDown, rovingTabIndex } from '../../components/roving';
import { groupCoordinators, useEngineState } from '../../queries/engine-state';
import { useRecentTraffic } from '../../queries/player-traffic';
import { usePlayerDetail, usePlayerTransitions, useTransitionTable } from '../../queries/players';
import { CommandBar } from './CommandBar';
import { FailingLine, FailingMark } from './Failing';
import { HouseholdEditor } from './HouseholdEditor';
import { marksStorageKey, parseMarks, type TimelineMark } from './marks';
import { NowPlaying } from './NowPlaying';
import { PlayerButtons } from './PlayerButtons';
import { PlayerReports } from './PlayerReports';
import { RequestStrip } from './RequestStrip';
import { foldRequests, REQUESTS_SHOWN, shownRows, type RequestRow } from './request-rows';
import { RetryWaits } from './RetryWaits';
import { StateDiagram } from './StateDiagram';
import { formatEngineClock, formatEngineTime } from '../../format/engine-time';
import { Violations } from './Violations';
import { WindowList } from './WindowList';
import { WorkbenchFaults } from './WorkbenchFaults';
import { WorkbenchTimeline } from './WorkbenchTimeline';
import styles from './PlayerPage.module.css';

const route = getRouteApi('/player');

export function PlayerPage() {
  const { data: state } = useEngineState();
  const coordinators = groupCoordinators(state);
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const selected = search.player ?? coordinators[0]?.player?.id ?? null;
  const detail = usePlayerDetail(selected).data;
  const transitionsQuery = usePlayerTransitions(selected);
  const liveTransitions = transitionsQuery.data ?? [];
  const table = useTransitionTable().data ?? [];
  const recent = useRecentTraffic(selected !== null).data;
  const liveRequests = recent && selected ? foldRequests(recent, selected) : [];
  // Paused: the strip and the timeline hold what they showed, to be read and scrolled back.
  const [frozen, setFrozen] = useState<{
    playerId: string;
    transitions: PlayerTransition[];
    requests: RequestRow[];
  } | null>(null);
  const paused = frozen !== null && frozen.playerId === selected;
  const transitions = paused ? frozen.transitions : liveTransitions;
  const requestsShown = search.requests ?? 'all';
  const requests = shownRows(paused ? frozen.requests : liveRequests, requestsShown);
  const marks = useMarks(selected);
  const marked = search.transition ?? null;
  const markedShown = marked !== null && transitions.some((t) => t.seq === marked);

  useEffect(() => {
    if (markedShown) document.getElementById(`transition-${marked}`)?.scrollIntoView({ block: 'center' });
  }, [marked, markedShown]);
  // Another player, chosen here: it replaces the address (Back leaves the area), and drops the mark.
  const choose = (playerId: string) =>
    void navigate({ search: { player: playerId, requests: search.requests }, replace: true });
  const showRequests = (shown: string) =>
    void navigate({
      search: (prev) => ({ ...prev, requests: shown === 'failed' || shown === 'no-reports' ? shown : undefined }),
      replace: true,
    });
  const since = paused ? liveTransitions.filter((t) => t.seq > (frozen.transitions.at(-1)?.seq ?? 0)).length : 0;

  const failingShown = detail?.failing && detail.retrying.length === 0 ? detail.failing : null;
  const firstPlayer = coordinators.find((c) => c.player)?.player;
  // How the tabs name the shown player (its group), for the reports.
  const playerName = coordinators.find((c) => c.player?.id === detail?.id)?.group.name ?? detail?.id ?? '';
  return (
    <section className={styles.page} aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Player</h1>
      </header>
      <div className={styles.playerTabs} role="tablist" aria-label="Players" onKeyDown={onRovingKeyDown}>
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
              tabIndex={rovingTabIndex(
                player.id === selected,
                player === firstPlayer,
                coordinators.some((c) => c.player?.id === selected),
              )}
              onClick={() => choose(player.id)}
            >
              {/* The panel is named by this alone: the badges change as the player does. */}
              <span id={`player-tab-name-${player.id}`}>{group.name}</span>
              <Badge state={player.playbackState}>
                {player.suspended ? 'SUSPENDED' : player.playbackState.replace('PLAYBACK_STATE_', '')}
              </Badge>
              {player.failing && <FailingMark failing={player.failing} />}
            </button>
          ) : null,
        )}
      </div>
      {detail && (
        <div className={styles.grid} id="player-panel" role="tabpanel" aria-labelledby={`player-tab-name-${detail.id}`}>
          <section className={`panel ${styles.state}`} aria-label="State">
            <div className="panel-head">
              <h2>State</h2>
              <span className={styles.stateBadge} data-testid="player-state" data-state={detail.state}>
                {detail.state}
              </span>
            </div>
            <StateDiagram table={table} state={detail.state as PlayerMachineState} last={transitions.at(-1)} />
            <RetryWaits waits={detail.retrying} />
            {/* While its requests fail, that run is the news (the last error may be older, or the same
                one), unless a retry waits: its line above says what failed, and the run goes on there. */}
            {/* A live region that is always there: a line mounted with its text is often not read out. */}
            <div role="status">
              {failingShown && <FailingLine failing={failingShown} className={styles.lastError} />}
            </div>
            {!failingShown && detail.lastError && <LastError error={detail.lastError} since={transitions.at(-1)?.at} />}
          </section>
          <section className={`panel ${styles.requests}`} aria-label="Requests">
            <div className="panel-head">
              <h2>Requests</h2>
              <span className="muted">player and server sides in one row</span>
              <select
                aria-label="Requests shown"
                value={requestsShown}
                onChange={(e) => showRequests(e.target.value)}
                className={styles.requestsShown}
              >
                {REQUESTS_SHOWN.map(({ value, label }) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
              <button
                type="button"
                aria-pressed={paused}
                onClick={() =>
                  setFrozen(
                    paused ? null : { playerId: detail.id, transitions: liveTransitions, requests: liveRequests },
                  )
                }
              >
                {paused ? `Follow${since > 0 ? ` (${since} new)` : ''}` : 'Pause'}
              </button>
            </div>
            <RequestStrip
              rows={requests}
              transitions={transitions}
              playerId={detail.id}
              rowsShown={requestsShown}
              loading={!paused && recent === undefined}
            />
          </section>
          <section className={`panel ${styles.faults}`} aria-label="Fault rules">
            <div className="panel-head">
              <h2>Fault rules</h2>
              <span className="muted">first matching rule wins</span>
            </div>
            <WorkbenchFaults playerId={detail.id} />
          </section>
          <section className={`panel ${styles.reports}`} aria-label="Reports">
            <div className="panel-head">
              <h2>Reports</h2>
              <span className="muted">timePlayed, as the server stored them</span>
            </div>
            <PlayerReports key={detail.id} detail={detail} playerName={playerName} />
          </section>
          <section className={`panel ${styles.timeline}`} aria-label="Timeline">
            <div className="panel-head">
              <h2>Transitions</h2>
              {paused && (
                <span className="muted" role="status">
                  Paused: {since} new since
                </span>
              )}
            </div>
            {marked !== null && !markedShown && transitionsQuery.isFetched && (
              <p className="muted" role="status">
                Transition #{marked} is not among the {transitions.length} latest shown here.
              </p>
            )}
            <WorkbenchTimeline
              playerId={detail.id}
              transitions={transitions}
              marked={marked}
              marks={marks.list}
              onMarks={marks.set}
              now={detail.at}
            />
          </section>
          <section className={`panel ${styles.now}`} aria-label="Now playing">
            <div className="panel-head">
              <h2>Now playing</h2>
              <PlayerButtons detail={detail} />
            </div>
            <NowPlaying detail={detail} />
            <WindowList detail={detail} />
          </section>
          <section className={`panel ${styles.violationsArea}`} aria-label="Contract violations">
            <div className="panel-head">
              <h2>Contract violations</h2>
            </div>
            <Violations playerId={detail.id} />
          </section>
          <section className={`panel ${styles.wide}`} aria-label="Command bar">
            <div className="panel-head">
              <h2>Control API</h2>
              <span className="muted">sent as an integration would, with the console's own token</span>
            </div>
            <CommandBar key={detail.id} detail={detail} />
          </section>
          <section className={`panel ${styles.wide}`} aria-label="Household">
            <div className="panel-head">
              <h2>Household</h2>
              <span className="muted">players and groups; one simulated player per group</span>
            </div>
            {state && <HouseholdEditor state={state} />}
          </section>
        </div>
      )}
    </section>
  );
}

/** The marks of a player's timeline, kept for the tab's life. */
function useMarks(playerId: string | null): { list: TimelineMark[]; set(marks: TimelineMark[]): void } {
  const [stored, setStored] = useState<{ playerId: string | null; list: TimelineMark[] }>({ playerId: null, list: [] });
  const list =
    stored.playerId === playerId
      ? stored.list
      : playerId
        ? parseMarks(sessionStorage.getItem(marksStorageKey(playerId)))
        : [];
  return {
    list,
    set: (marks) => {
      if (!playerId) return;
      sessionStorage.setItem(marksStorageKey(playerId), JSON.stringify(marks));
      setStored({ playerId, list: marks });
    },
  };
}

/**
 * The player's last error: an alert while it is the latest news, a quiet line once the player has
 * moved on (a transition after it), so a storm that passed does not shout under PLAYING.
 */
function LastError({ error, since }: { error: NonNullable<PlayerDetail['lastError']>; since: number | undefined }) {
  const when = <code title={formatEngineTime(error.at, { millis: true })}>{formatEngineClock(error.at)}</code>;
  if (since !== undefined && since > error.at) {
    return (
      <p className={`${styles.lastError} muted`} data-testid="last-error" data-stale="true">
        Earlier error at {when}, before the last transition: {error.message}
      </p>
    );
  }
  return (
    <p className={styles.lastError} data-outcome="bad" role="alert" data-testid="last-error">
      Last error at {when}: {error.message}
    </p>
  );
}
