/**
 * Says, across the top of the open area, that the console no longer hears its engine (the
 * headless console's process stopped, or the network between them did). An 8 px dot in the status
 * bar was all there was: a user went on clicking at a page that no longer changed anything. A
 * hiccup that heals within a second (the event stream's own reconnect) says nothing.
 */
import { useEffect, useState } from 'react';
import { useConnectionStore } from '../stores/connection';
import styles from './EngineLost.module.css';

/** How long the engine must be gone before the banner shows. */
export const LOST_AFTER_MS = 1_000;

export function EngineLost() {
  const lostSince = useConnectionStore((s) => s.lostSince);
  const restarted = useConnectionStore((s) => s.state === 'restarted');
  // The loss the banner is shown for, once it has lasted LOST_AFTER_MS.
  const [lasted, setLasted] = useState<number | null>(null);
  useEffect(() => {
    if (lostSince === null) return;
    const timer = setTimeout(() => setLasted(lostSince), Math.max(0, lostSince + LOST_AFTER_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [lostSince]);
  // A console started again answers at once, but never to this page's key: no waiting, no retrying.
  if (restarted)
    return (
      <div className={styles.lost} role="alert" data-testid="engine-lost">
        <strong>The console was started again.</strong> This page still holds the key of the console that stopped, and
        every start makes a new one: load the page again to reconnect.{' '}
        <button type="button" onClick={() => window.location.reload()}>
          Reload page
        </button>
      </div>
    );
  if (lostSince === null || lasted !== lostSince) return null;
  return (
    <div className={styles.lost} role="alert" data-testid="engine-lost">
      <strong>The console lost its engine.</strong> Reconnecting on its own since{' '}
      {new Date(lostSince).toLocaleTimeString('en-GB')}: until it is back, what you see may be out of date and what you
      do reaches nothing. If the console was stopped, start it again; on another port, open the URL it prints.
    </div>
  );
}
