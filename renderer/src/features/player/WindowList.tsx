/** The item window the player holds, as the server last sent it, with the playing item marked. */
import type { PlayerDetail } from '../../../../main/engine/api/player-types';
import { formatMillis } from './NowPlaying';
import { windowStates } from './window-state';

export function WindowList({ detail }: { detail: PlayerDetail }) {
  const window = detail.window;
  if (!window) return <p className="muted">No item window yet.</p>;
  return (
    <div className="window-list">
      <div className="window-meta">
        <span>queueVersion <code>{window.queueVersion}</code></span>
        {windowStates(detail).map((state) => (
          <span key={state.text} className={`badge ${state.tone}`}>
            {state.text}
          </span>
        ))}
      </div>
      <ol aria-label="Item window">
        {window.includesBeginningOfQueue && <li className="edge-marker">beginning of queue</li>}
        {window.items.map((item) => (
          <li key={item.id} aria-current={item.id === detail.itemId ? 'true' : undefined}>
            <code>{item.id}</code>
            <span>{item.name ?? ''}</span>
            <code className="muted">{item.durationMillis === null ? '' : formatMillis(item.durationMillis)}</code>
          </li>
        ))}
        {window.includesEndOfQueue && <li className="edge-marker">end of queue</li>}
      </ol>
    </div>
  );
}
