/** How a run stands, in a word (never colour alone): running, passed or failed. */
import type { ConformanceRunStatus } from '@engine-api/conformance-types';
import styles from './StatusPill.module.css';

/** `className` lets a list place the pill (its grid area) from its own stylesheet. */
export function StatusPill({ status, className }: { status: ConformanceRunStatus; className?: string }) {
  return (
    <span className={className ? `${styles.status} ${className}` : styles.status} data-status={status}>
      {status}
    </span>
  );
}
