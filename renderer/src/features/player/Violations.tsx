/** What the server's developer must fix: contract violations the player found, per request. */
import { useViolationStore } from '../../stores/violations';
import { formatEngineClock } from '../../format/engine-time';

export function Violations({ playerId }: { playerId: string }) {
  const violations = useViolationStore((s) => s.violations).filter((v) => v.playerId === playerId);
  const clear = useViolationStore((s) => s.clear);
  if (violations.length === 0) return <p className="muted">No contract violations seen.</p>;
  return (
    <div className="violations">
      <ul aria-label="Contract violations">
        {[...violations].reverse().map((v, i) => (
          <li key={`${v.requestId}-${i}`} data-severity={v.severity}>
            <code>{formatEngineClock(v.at)}</code> <strong>{v.endpoint}</strong> <span className="badge">{v.severity}</span> {v.message}
          </li>
        ))}
      </ul>
      <button type="button" onClick={clear}>
        Clear
      </button>
    </div>
  );
}
