/** A run going on: how many of its cases settled, as a bar and in words, and the case it is on now. */
import type { ConformanceCaseInfo, ConformanceSummary } from '@engine-api/conformance-types';
import { progressText, settledCount } from './summary';
import styles from './RunProgress.module.css';

export function RunProgress({
  summary,
  current,
}: {
  summary: ConformanceSummary;
  current: ConformanceCaseInfo | null;
}) {
  const settled = settledCount(summary);
  const share = summary.total ? (settled / summary.total) * 100 : 0;
  return (
    <div className={styles.progress}>
      <div
        className={styles.progressBar}
        role="progressbar"
        aria-label="Cases settled"
        aria-valuemin={0}
        aria-valuemax={summary.total}
        aria-valuenow={settled}
        aria-valuetext={progressText(summary)}
      >
        <div className={styles.progressFill} style={{ width: `${share}%` }} />
      </div>
      <span className={styles.progressCount} data-testid="progress-count">
        {progressText(summary)}
      </span>
      {current && (
        <span className={styles.progressCurrent} aria-label="Current case">
          now: {current.title} <code>{current.id}</code>
        </span>
      )}
    </div>
  );
}
