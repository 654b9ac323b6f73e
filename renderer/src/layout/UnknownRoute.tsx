/**
 * Says that the address named no area and which one opened instead, until the user goes elsewhere
 * or dismisses it (router/unknown-route.ts).
 */
import { useRouterState } from '@tanstack/react-router';
import { areaLabel, areaOfPath } from '../router/areas';
import { useUnknownRoute } from '../router/unknown-route';
import styles from './UnknownRoute.module.css';

export function UnknownRoute() {
  const asked = useUnknownRoute((s) => s.asked);
  const clear = useUnknownRoute((s) => s.clear);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  if (!asked || pathname !== asked.shown) return null;
  return (
    <p className={styles.notice} role="status">
      <span>
        No area at <code>#{asked.path}</code>: {areaLabel(areaOfPath(asked.shown))} opened instead.
      </span>
      <button type="button" className="icon-button" aria-label="Dismiss" onClick={clear}>
        ✕
      </button>
    </p>
  );
}
