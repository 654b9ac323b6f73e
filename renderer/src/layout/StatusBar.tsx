/**
 * The status bar: the four service URLs an integrator points their app at (each with a copy
 * button), whether the renderer hears the engine, and the engine clock.
 */
import type { ServiceUrls } from '../../../main/engine/api/types';
import { CopyButton } from '../components/CopyButton';
import { useEngineState } from '../queries/engine-state';
import { useConnectionStore } from '../stores/connection';
import { ClockControl } from './ClockControl';

const SERVICES: { key: keyof ServiceUrls; label: string }[] = [
  { key: 'console', label: 'Console' },
  { key: 'login', label: 'Login' },
  { key: 'control', label: 'Control' },
  { key: 'cloudQueue', label: 'Cloud queue' },
];

export function StatusBar() {
  const { data, error } = useEngineState();
  const connection = useConnectionStore((s) => s.state);
  return (
    <footer className="status-bar">
      <span className="connection" data-state={connection} title={`Engine connection: ${connection}`}>
        <span className="dot" aria-hidden="true" />
        <span className="sr-only">Engine connection: {connection}</span>
      </span>
      <ul className="service-urls" aria-label="Service URLs">
        {SERVICES.map(({ key, label }) => (
          <li key={key} className="service-url" data-service={key}>
            <span className="service-label">{label}</span>
            <code>{data?.urls[key] ?? (error ? 'unavailable' : '…')}</code>
            {data && <CopyButton value={data.urls[key]} label={`Copy ${label.toLowerCase()} URL`} />}
          </li>
        ))}
      </ul>
      <ClockControl />
    </footer>
  );
}
