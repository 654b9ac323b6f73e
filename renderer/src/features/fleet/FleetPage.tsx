/**
 * The Fleet area (docs/fleet.md): N simulated players, each the console's own player, against the
 * reference server or the integrator's; the kept fleets and the form on the left, on the right
 * the fleet the address names, else the newest (the one playing, wherever it was started), live
 * while it plays and as a summary once it ended.
 */
import { useRef } from 'react';
import { FleetForm } from './FleetForm';
import { FleetList } from './FleetList';
import { FleetView } from './FleetView';
import { fleetShown } from './fleet-list';
import { useFleet, useFleets } from './queries';
import { useFleetView } from './view-state';
import styles from './FleetPage.module.css';

export function FleetPage() {
  const { shown: named, show } = useFleetView();
  const { data: fleets = [], error, isPending } = useFleets();
  const shown = fleetShown(named, fleets);
  const running = useFleet(shown).data?.status === 'running' || fleets.some((fleet) => fleet.status === 'running');
  const main = useRef<HTMLDivElement>(null);
  // Start sits at the foot of a long form: the fleet it started comes into view, its status first
  // (audit: the view stayed scrolled down, the charts cut mid-panel), and the focus goes with it.
  const started = (id: string) => {
    show(id);
    requestAnimationFrame(() => {
      main.current?.scrollIntoView({ block: 'start' });
      main.current?.focus({ preventScroll: true });
    });
  };
  return (
    <section className={styles.page} aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Fleet</h1>
      </header>
      <div className={styles.layout}>
        <div className={styles.side}>
          <section className="panel" aria-labelledby="fleet-list-title">
            <div className="panel-head">
              <h2 id="fleet-list-title">Fleets</h2>
            </div>
            {error && (
              <p role="alert" className="error">
                The kept fleets could not be read: {error.message}
              </p>
            )}
            <FleetList fleets={fleets} loading={isPending} shownId={shown} onShow={show} />
          </section>
          <FleetForm running={running} onStarted={started} />
        </div>
        <div className={styles.main} ref={main} tabIndex={-1} role="region" aria-label="The fleet shown">
          {shown ? (
            <FleetView id={shown} />
          ) : (
            <p className="muted">
              Start a fleet: its players, by state, its requests and retries per second, and its latency show here as it
              plays, its summary and thresholds at its end.
            </p>
          )}
        </div>
      </div>
    </section>
  );
}
