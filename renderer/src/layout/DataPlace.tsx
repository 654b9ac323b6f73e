/**
 * Where the console keeps its data, in the status bar, and what a restart therefore keeps
 * (docs/persistence.md): nothing said it, so whether a console started again would find its
 * queues, integrations and traffic was a guess (audit-ui W15). `--ephemeral` writes nothing; a
 * data dir keeps all but what the console holds in memory only.
 */
import { CopyButton } from '../components/CopyButton';
import { closeOnEscape } from './EngineWarnings';
import styles from './StatusBar.module.css';

/** What a data dir keeps across a restart, and what lives in memory only (docs/persistence.md). */
const KEPT =
  'households and players, where they were; queues and their reports; integrations, grants, tokens and OAuth flows; fault rules; scenarios; check runs; the traffic log';
const NOT_KEPT =
  'fleets, event delivery tries, the sample integration’s secret, and an Authorization typed for a check';

export function DataPlace({ dataDir }: { dataDir: string | null }) {
  const label = dataDir === null ? 'In memory' : 'Data dir';
  return (
    <details className={styles.serviceMenu} onKeyDown={closeOnEscape}>
      <summary title={dataDir === null ? 'Nothing is written: a restart starts empty' : `Data kept in ${dataDir}`}>
        {label}
      </summary>
      <div className={styles.dataPanel} role="group" aria-label="Where the data is kept">
        {dataDir === null ? (
          <p>
            Started with <code>--ephemeral</code>: nothing is written. A restart starts empty, with the demo household
            and its three players.
          </p>
        ) : (
          <>
            <p className={styles.dataDir}>
              <code>{dataDir}</code> <CopyButton value={dataDir} label="Copy the data dir" />
            </p>
            <p>A restart on this folder finds {KEPT}.</p>
            <p className="muted">Held in memory only, gone at a restart: {NOT_KEPT}.</p>
          </>
        )}
      </div>
    </details>
  );
}
