/**
 * Every transition of the player with its cause (request, response, timer, user, command) and the
 * table row that fired, newest first. Each row is a link target for the traffic log.
 */
import type { PlayerTransition } from '../../../../main/engine/api/player-types';

export function formatEngineClock(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

/** `marked`: the transition a link from the traffic log points at. */
export function Timeline({ transitions, marked = null }: { transitions: PlayerTransition[]; marked?: number | null }) {
  if (transitions.length === 0) return <p className="muted">No transitions yet.</p>;
  return (
    <div className="timeline" role="region" aria-label="Transitions" tabIndex={0}>
      <table className="table dense">
        <thead>
          <tr>
            <th scope="col">Engine time</th>
            <th scope="col">Change</th>
            <th scope="col">Event</th>
            <th scope="col">Cause</th>
            <th scope="col">Rule</th>
            <th scope="col">Detail</th>
          </tr>
        </thead>
        <tbody>
          {[...transitions].reverse().map((t) => (
            <tr key={t.seq} id={`transition-${t.seq}`} data-transition={t.transition} data-marked={t.seq === marked || undefined} aria-current={t.seq === marked || undefined}>
              <td>
                <code>{formatEngineClock(t.at)}</code>
              </td>
              <td>
                {t.from === t.to ? <span className="muted">{t.to}</span> : <strong>{`${t.from} → ${t.to}`}</strong>}
              </td>
              <td>
                <code>{t.event}</code>
              </td>
              <td>
                <span className="cause" data-cause={t.cause}>
                  {t.cause}
                </span>
              </td>
              <td>
                <code>{t.transition}</code>
              </td>
              <td className="detail">{t.detail ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
