/**
 * The kept runs, newest first: the server each checked, when, how it ended and its tallies. One
 * Tab stop (the open run); ↑/↓, Home and End move to another run and open it.
 */
import { useEffect, useRef, useState } from 'react';
import type { ConformanceRunSummary } from '@engine-api/conformance-types';
import { keptListClass, keptTabIndex, onKeptListKeyDown } from '../../components/kept-list';
import { startedText } from '../../format/wall-time';
import { serverLabel, serverLabelParts, shortTallyText, unreachableWord } from './summary';
import { StatusPill } from './StatusPill';
import { Hint } from './Hint';
import styles from './RunList.module.css';

export interface RunListProps {
  runs: ConformanceRunSummary[];
  /** Not read yet: said as such, not as "No runs yet". */
  loading?: boolean;
  selectedId: string | null;
  onSelect(id: string): void;
  /** Bumped to move the focus onto the open run (after a delete took the focused button away). */
  focusRequest: number;
}

export function RunList({ runs, loading = false, selectedId, onSelect, focusRequest }: RunListProps) {
  const list = useRef<HTMLUListElement>(null);
  // The day "today" is, for the times: taken once, a list read across midnight still reads right enough.
  const [now] = useState(() => Date.now());

  useEffect(() => {
    if (focusRequest > 0) list.current?.querySelector<HTMLElement>('[role="option"][tabindex="0"]')?.focus();
  }, [focusRequest]);

  if (runs.length === 0 && loading) return <Hint block>Reading the runs…</Hint>;
  if (runs.length === 0)
    return (
      <Hint block>No runs yet: the checks run above are kept here (the newest 50), with the server each checked.</Hint>
    );
  return (
    <ul
      className={`${keptListClass} ${styles.runs}`}
      role="listbox"
      aria-label="Kept runs"
      ref={list}
      onKeyDown={(event) => onKeptListKeyDown(event, runs, selectedId, onSelect)}
    >
      {runs.map((run, index) => {
        const selected = run.id === selectedId;
        return (
          <li
            key={run.id}
            role="option"
            aria-selected={selected}
            tabIndex={keptTabIndex(runs, selectedId, index)}
            data-run-id={run.id}
            data-status={run.status}
            onClick={() => onSelect(run.id)}
          >
            <StatusPill run={run} className={styles.status} />
            <ServerLabel baseUrl={run.baseUrl} />
            <span className={styles.runTally}>
              {run.error?.kind === 'unreachable' ? unreachableWord(run.error.message) : shortTallyText(run.summary)}
              {run.rerunOf && (
                <span className={styles.runRerun} title={`A rerun of ${run.rerunOf}`}>
                  rerun
                </span>
              )}
            </span>
            <span className={styles.runWhen}>{startedText(run.startedAt, now)}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** A run's server, cut in its middle where the list is narrow: the host's path first, its queue last; whole on hover. */
function ServerLabel({ baseUrl }: { baseUrl: string }) {
  const { head, tail } = serverLabelParts(serverLabel(baseUrl));
  return (
    <span className={styles.runServer} title={baseUrl}>
      {head && <span className={styles.serverHead}>{head}</span>}
      <span className={styles.serverTail}>{tail}</span>
    </span>
  );
}
