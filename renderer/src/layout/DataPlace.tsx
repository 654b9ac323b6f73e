/**
 * Where the console keeps its data, from the status bar, and what a restart therefore keeps
 * (docs/persistence.md): nothing said it, so whether a console started again would find its
 * queues, integrations and traffic was a guess (audit-ui W15). `--ephemeral` writes nothing; a
 * data dir keeps all but what the console holds in memory only.
 *
 * Where the bar shows the service URLs it has no width to spare: the loopback host they share
 * opens it (`host`). Where they fold into a popover, it is a chip of its own.
 */
import { RESTART_KEEPS, RESTART_LOSES } from '@engine-api/restart-keeps';
import { CopyButton } from '../components/CopyButton';
import { closeOnEscape } from './EngineWarnings';
import styles from './StatusBar.module.css';

/** What a data dir keeps across a restart, and what lives in memory only: the engine's table, held to it by a test. */
const KEPT = RESTART_KEEPS.map((claim) => claim.words).join('; ');
const NOT_KEPT = new Intl.ListFormat('en', { type: 'conjunction' }).format(RESTART_LOSES.map((claim) => claim.words));

export function DataPlace({ dataDir, host }: { dataDir: string | null; host?: string }) {
  const word = dataDir === null ? 'In memory' : 'Data dir';
  const kept = dataDir === null ? 'nothing is written: a restart starts empty' : `data kept in ${dataDir}`;
  return (
    <details className={styles.serviceMenu} onKeyDown={closeOnEscape}>
      <summary
        className={host ? styles.serviceHost : undefined}
        title={host ? `Every listener binds to ${host}; ${kept}` : kept}
      >
        {host ?? word}
        {host && <span className="sr-only">: where the data is kept ({word.toLowerCase()})</span>}
      </summary>
      <div className={styles.dataPanel} role="group" aria-label="Where the data is kept">
        {host && (
          <p>
            Every listener binds to <code>{host}</code>, on this machine only.
          </p>
        )}
        {dataDir === null ? (
          <p>
            Started with <code>--ephemeral</code>: nothing is written. A restart starts empty, with the demo household
            and its three players.
          </p>
        ) : (
          <>
            <p className={styles.dataDir}>
              Data dir <code>{dataDir}</code> <CopyButton value={dataDir} label="Copy the data dir" />
            </p>
            <p>A restart on this folder finds {KEPT}.</p>
            <p className="muted">
              Held in memory only, gone at a restart: {NOT_KEPT}. The sample integration gets a new secret at each
              start.
            </p>
          </>
        )}
      </div>
    </details>
  );
}
