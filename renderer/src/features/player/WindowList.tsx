/**
 * The item window the player holds, as the server last sent it, with the playing item marked and
 * kept in sight as the player moves through the window.
 */
import { useLayoutEffect, useRef } from 'react';
import type { PlayerDetail } from '@engine-api/player-types';
import { Badge } from '../../components/Badge';
import { formatMillis } from './NowPlaying';
import { windowStates } from './window-state';
import styles from './WindowList.module.css';

export function WindowList({ detail }: { detail: PlayerDetail }) {
  const list = useRef<HTMLOListElement>(null);
  const window = detail.window;
  useLayoutEffect(() => {
    const box = list.current;
    const current = box?.querySelector<HTMLElement>('[aria-current="true"]');
    if (!box || !current) return;
    // The list scrolls, not the page: scrollIntoView would also pull the page to it while someone
    // reads the transitions below.
    const top = current.offsetTop;
    if (top < box.scrollTop) box.scrollTop = top;
    else if (top + current.offsetHeight > box.scrollTop + box.clientHeight)
      box.scrollTop = top + current.offsetHeight - box.clientHeight;
  }, [detail.itemId, window]);
  if (!window) return <p className="muted">No item window yet.</p>;
  return (
    <div className={styles.windowList}>
      <div className={styles.windowMeta}>
        <span>
          queueVersion <code>{window.queueVersion}</code>
        </span>
        {windowStates(detail).map((state) => (
          <Badge key={state.text} tone={state.tone}>
            {state.text}
          </Badge>
        ))}
      </div>
      {/* It scrolls: a Tab stop, so the keyboard can scroll it too. */}
      <ol aria-label="Item window" ref={list} tabIndex={0}>
        {window.includesBeginningOfQueue && <li className={styles.edgeMarker}>beginning of queue</li>}
        {window.items.map((item) => (
          <li key={item.id} aria-current={item.id === detail.itemId ? 'true' : undefined}>
            <code>{item.id}</code>
            <span>{item.name ?? ''}</span>
            <code className="muted">{item.durationMillis === null ? '' : formatMillis(item.durationMillis)}</code>
          </li>
        ))}
        {window.includesEndOfQueue && <li className={styles.edgeMarker}>end of queue</li>}
      </ol>
    </div>
  );
}
