/**
 * The status bar: the four service URLs an integrator points their app at (each with a copy
 * button), whether the renderer hears the engine, where its data is kept, the engine's warnings
 * (when it has any), and the engine clock.
 */
import type { ServiceUrls } from '@engine-api/types';
import { useSyncExternalStore } from 'react';
import { PaletteButton } from '../components/CommandPalette';
import { CopyButton } from '../components/CopyButton';
import { useEngineState } from '../queries/engine-state';
import { useConnectionStore } from '../stores/connection';
import { ClockControl } from './ClockControl';
import { DataPlace } from './DataPlace';
import { closeOnEscape, EngineWarnings } from './EngineWarnings';
import styles from './StatusBar.module.css';

const SERVICES: { key: keyof ServiceUrls; label: string }[] = [
  { key: 'console', label: 'Console' },
  { key: 'login', label: 'Login' },
  { key: 'control', label: 'Control' },
  { key: 'cloudQueue', label: 'Cloud queue' },
];

/** The host all four listeners share (they always do: one `--host`), shown once. */
function sharedHost(urls: ServiceUrls): string | null {
  const hosts = new Set(Object.values(urls).map((url) => new URL(url).hostname));
  return hosts.size === 1 ? [...hosts][0]! : null;
}

/** A service as it is shown: `:47101` beside a shared host, else the URL without its scheme. The copy has the whole URL. */
function shown(url: string, host: string | null): string {
  return host === null ? url.replace(/^https?:\/\//, '') : `:${new URL(url).port}`;
}

/**
 * Narrower than this, the four URLs fold into a "Services" popover so the bar stays one line: in
 * full they take about 530 px beside the host, the clock and the palette's button, and from
 * 1,366 px down the last copy button was cut.
 */
const COMPACT = '(max-width: 1399px)';

function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
  );
}

export function StatusBar() {
  const { data, error } = useEngineState();
  const connection = useConnectionStore((s) => s.state);
  const compact = useMediaQuery(COMPACT);
  const host = data ? sharedHost(data.urls) : null;
  const list = (
    <ul className={styles.serviceUrls} aria-label="Service URLs">
      {SERVICES.map(({ key, label }) => (
        <li key={key} className={styles.serviceUrl} data-service={key}>
          <span className={styles.serviceLabel}>{label}</span>
          <code title={data?.urls[key]} data-url={data?.urls[key] ?? ''}>
            {/* In the popover there is room for the host with each port. */}
            {data ? shown(data.urls[key], compact ? null : host) : error ? 'unavailable' : '…'}
          </code>
          {data && <CopyButton value={data.urls[key]} label={`Copy ${label.toLowerCase()} URL`} />}
        </li>
      ))}
    </ul>
  );
  return (
    <footer className={styles.statusBar}>
      <span className={styles.connection} data-state={connection} title={`Engine connection: ${connection}`}>
        <span className={styles.dot} aria-hidden="true" />
        <span className="sr-only">Engine connection: {connection}</span>
      </span>
      {compact ? (
        <>
          <details className={styles.serviceMenu} onKeyDown={closeOnEscape}>
            <summary title="The four service URLs, each with a copy button">Services</summary>
            {list}
          </details>
          {data && <DataPlace dataDir={data.dataDir} />}
        </>
      ) : (
        <>
          {data && <DataPlace dataDir={data.dataDir} host={host ?? undefined} />}
          {list}
        </>
      )}
      {data && <EngineWarnings warnings={data.warnings} />}
      <ClockControl />
      <PaletteButton />
    </footer>
  );
}
