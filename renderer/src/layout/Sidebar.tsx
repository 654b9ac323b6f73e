/**
 * The areas of the console, each one keystroke away (1–8), and the theme switch at the foot. In a
 * narrow window (Sidebar.module.css) only the icons show: each name stays the button's accessible name and
 * shows beside it on hover and focus.
 */
import type { ComponentType } from 'react';
import {
  BoltIcon,
  BracesIcon,
  CheckServerIcon,
  FleetIcon,
  KeyIcon,
  QueueIcon,
  SpeakerIcon,
  TrafficIcon,
} from '../components/icons';
import { ThemeSwitch } from '../components/ThemeSwitch';
import { GuidedDemo } from '../features/demo/GuidedDemo';
import { useCurrentArea, useOpenArea } from '../router/area-memory';
import { AREAS, type AreaId } from '../router/areas';
import styles from './Sidebar.module.css';

const ICONS: Record<AreaId, ComponentType> = {
  oauth: KeyIcon,
  queues: QueueIcon,
  player: SpeakerIcon,
  traffic: TrafficIcon,
  faults: BoltIcon,
  api: BracesIcon,
  conformance: CheckServerIcon,
  fleet: FleetIcon,
};

export function Sidebar() {
  const area = useCurrentArea();
  const open = useOpenArea();
  return (
    <nav className={styles.sidebar} aria-label="Console areas">
      <div className={styles.brand}>
        <span className={styles.brandMark} aria-hidden="true">
          ◉
        </span>
        <span className={styles.brandName}>Cloud Queue Console</span>
      </div>
      <ul>
        {AREAS.map((a) => {
          const Icon = ICONS[a.id];
          return (
            <li key={a.id}>
              <button
                type="button"
                className={styles.navItem}
                aria-current={a.id === area ? 'page' : undefined}
                aria-keyshortcuts={a.key}
                onClick={() => open(a.id)}
              >
                <Icon />
                <span className={styles.navLabel}>{a.label}</span>
                <kbd aria-hidden="true">{a.key}</kbd>
              </button>
            </li>
          );
        })}
      </ul>
      <div className={styles.footer}>
        <GuidedDemo />
        <ThemeSwitch />
      </div>
    </nav>
  );
}
