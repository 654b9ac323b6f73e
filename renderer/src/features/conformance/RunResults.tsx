/**
 * A run's results in the order a person works through them (docs/contract/console.md §8): the
 * failures, then the warnings, and under them every case by contract section, folded when a case
 * failed (the passes are then not what to read first) and open otherwise.
 */
import { useState } from 'react';
import { findingRows, groupBySection, type CaseRow } from './grouping';
import { Findings } from './Findings';
import { ResultTable } from './ResultTable';
import styles from './RunResults.module.css';

export function RunResults({ rows }: { rows: readonly CaseRow[] }) {
  const findings = findingRows(rows);
  const failed = findings.some((row) => row.result?.outcome === 'fail');
  const [open, setOpen] = useState(!failed);
  // A run watched live unfolds nothing by itself once a case fails: it folds, once.
  const [foldedFor, setFoldedFor] = useState(failed);
  if (failed && !foldedFor) {
    setFoldedFor(true);
    setOpen(false);
  }
  const passed = rows.filter((row) => row.result?.outcome === 'pass').length;
  const skipped = rows.filter((row) => row.result?.outcome === 'skip').length;
  const toCome = rows.filter((row) => row.state === 'running' || row.state === 'pending').length;
  // A run that ended before its cases did (stopped, interrupted): "to come" was untrue of those.
  const notRun = rows.filter((row) => row.state === 'not-run').length;
  const counts = [
    `${passed} passed`,
    `${skipped} skipped`,
    ...(toCome ? [`${toCome} to come`] : []),
    ...(notRun ? [`${notRun} not run`] : []),
  ].join(', ');
  return (
    <>
      <Findings rows={findings} />
      <details className={styles.fold} open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          All {rows.length} cases by contract section ({counts})
        </summary>
        <ResultTable groups={groupBySection(rows)} />
      </details>
    </>
  );
}
