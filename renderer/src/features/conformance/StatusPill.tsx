/** How a run stands, in a word (never colour alone): running, passed or failed. */
import type { ConformanceRunStatus } from '@engine-api/conformance-types';
import styles from './conformance.module.css';

export function StatusPill({ status }: { status: ConformanceRunStatus }) {
  return (
    <span className={styles.status} data-status={status}>
      {status}
    </span>
  );
}
