/** How a run stands, in a word (never colour alone): running, passed, failed or stopped. */
import type { ConformanceRunSummary } from '@engine-api/conformance-types';
import { conformanceRunWord } from '@engine-api/conformance-word';
import styles from './StatusPill.module.css';

/** `className` lets a list place the pill (its grid area) from its own stylesheet. */
export function StatusPill({
  run,
  className,
}: {
  run: Pick<ConformanceRunSummary, 'status' | 'error' | 'summary'>;
  className?: string;
}) {
  const word = conformanceRunWord(run);
  return (
    <span className={className ? `${styles.status} ${className}` : styles.status} data-status={word}>
      {word}
    </span>
  );
}
