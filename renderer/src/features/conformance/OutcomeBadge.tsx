/**
 * A case's outcome as a badge: a mark and the word (pass, fail, warn, skip), so it reads without
 * colour; a case still to come says whether it runs now or later.
 */
import type { ConformanceOutcome } from '@engine-api/conformance-types';
import type { CaseState } from './grouping';
import { OUTCOME_LABEL, OUTCOME_MARK } from './summary';
import styles from './OutcomeBadge.module.css';

const STATE_LABEL: Record<Exclude<CaseState, 'settled'>, string> = {
  running: 'running',
  pending: 'to come',
  'not-run': 'not run',
};

export function OutcomeBadge({ outcome, state }: { outcome: ConformanceOutcome | null; state: CaseState }) {
  if (outcome === null || state !== 'settled') {
    const label = STATE_LABEL[state === 'settled' ? 'pending' : state];
    return (
      <span className={styles.outcome} data-state={state}>
        {label}
      </span>
    );
  }
  return (
    <span className={styles.outcome} data-outcome={outcome}>
      <span aria-hidden="true">{OUTCOME_MARK[outcome]}</span> {OUTCOME_LABEL[outcome]}
    </span>
  );
}
