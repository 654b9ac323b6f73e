/**
 * The Fleet area (docs/fleet.md): N simulated players, each the console's own player, against the
 * reference server or the integrator's; the form on the left, the fleet it started on the right,
 * live while it plays and as a summary once it ended.
 */
import { FleetForm } from './FleetForm';
import { FleetView } from './FleetView';
import { useFleet } from './queries';
import { useFleetView } from './view-state';
import styles from './FleetPage.module.css';

export function FleetPage() {
  const { shown, show } = useFleetView();
  const running = useFleet(shown).data?.status === 'running';
  return (
    <section className={styles.page} aria-labelledby="page-title">
      <header className="page-header">
        <h1 id="page-title">Fleet</h1>
      </header>
      <div className={styles.layout}>
        <div className={styles.side}>
          <FleetForm running={running} onStarted={show} />
        </div>
        <div className={styles.main}>
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
