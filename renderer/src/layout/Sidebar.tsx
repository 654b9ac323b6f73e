/**
 * The areas of the console, each one keystroke away (1–7), and the theme switch at the foot. In a
 * narrow window (styles.css) only the icons show: each name stays the button's accessible name and
 * shows beside it on hover and focus.
 */
import type { ComponentType } from 'react';
import { BoltIcon, BracesIcon, CheckServerIcon, KeyIcon, QueueIcon, SpeakerIcon, TrafficIcon } from '../components/icons';
import { ThemeSwitch } from '../components/ThemeSwitch';
import { useCurrentArea, useOpenArea } from '../router/area-memory';
import { AREAS, type AreaId } from '../router/areas';

const ICONS: Record<AreaId, ComponentType> = {
  oauth: KeyIcon,
  queues: QueueIcon,
  player: SpeakerIcon,
  traffic: TrafficIcon,
  faults: BoltIcon,
  api: BracesIcon,
  conformance: CheckServerIcon,
};

export function Sidebar() {
  const area = useCurrentArea();
  const open = useOpenArea();
  return (
    <nav className="sidebar" aria-label="Console areas">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">◉</span>
        <span className="brand-name">Cloud Queue Console</span>
      </div>
      <ul>
        {AREAS.map((a) => {
          const Icon = ICONS[a.id];
          return (
            <li key={a.id}>
              <button type="button" className="nav-item" aria-current={a.id === area ? 'page' : undefined} aria-keyshortcuts={a.key} onClick={() => open(a.id)}>
                <Icon />
                <span className="nav-label">{a.label}</span>
                <kbd aria-hidden="true">{a.key}</kbd>
              </button>
            </li>
          );
        })}
      </ul>
      <div className="sidebar-footer">
        <ThemeSwitch />
      </div>
    </nav>
  );
}
