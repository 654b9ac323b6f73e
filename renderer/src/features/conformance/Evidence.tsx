/**
 * A case's evidence: the traffic log entries of the requests it judged, each a link that opens the
 * entry in the Traffic area (`#/traffic?entry=<id>`, as the Player page's violations link it).
 * A case that walked a queue judged many: the first few show, the rest one press away.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Hint } from './Hint';
import styles from './Evidence.module.css';

const SHOWN = 4;

export function Evidence({ caseId, trafficIds }: { caseId: string; trafficIds: readonly number[] }) {
  const [all, setAll] = useState(false);
  if (trafficIds.length === 0) return <Hint>none</Hint>;
  const shown = all ? trafficIds : trafficIds.slice(0, SHOWN);
  const more = trafficIds.length - shown.length;
  return (
    <ul className={styles.evidence} aria-label={`Evidence of ${caseId}`}>
      {shown.map((id) => (
        <li key={id}>
          <Link to="/traffic" search={{ entry: id }} aria-label={`Traffic entry ${id}, evidence of ${caseId}`}>
            #{id}
          </Link>
        </li>
      ))}
      {more > 0 && (
        <li>
          <button
            type="button"
            className={styles.more}
            onClick={() => setAll(true)}
            aria-label={`Show ${more} more traffic entries of ${caseId}`}
          >
            +{more} more
          </button>
        </li>
      )}
    </ul>
  );
}
