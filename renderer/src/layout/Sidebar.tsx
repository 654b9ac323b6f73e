/** The areas of the console, each one keystroke away (1–7). */
import { AREAS, useNavStore } from '../stores/nav';

export function Sidebar() {
  const area = useNavStore((s) => s.area);
  const open = useNavStore((s) => s.open);
  return (
    <nav className="sidebar" aria-label="Console areas">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">◉</span>
        <span>Cloud Queue Console</span>
      </div>
      <ul>
        {AREAS.map((a) => (
          <li key={a.id}>
            <button type="button" className="nav-item" aria-current={a.id === area ? 'page' : undefined} onClick={() => open(a.id)}>
              <span>{a.label}</span>
              <kbd aria-hidden="true">{a.key}</kbd>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
