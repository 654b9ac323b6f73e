/**
 * The filters of the log: target, reason, status (503, 4xx, none), text in the URL or bodies, and
 * one request's exchanges when a transition's link opened the log.
 * A status the engine would not understand is said so at once and not applied; the text applies
 * once typing pauses, on Enter, or when the area is left. `/` anywhere on the page puts the cursor
 * in the text filter.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { TRAFFIC_TARGETS, type TrafficFilter, type TrafficTarget } from '@engine-api/traffic-types';
import { TRAFFIC_REASONS as REASONS } from '../../router/search';
import { checkStatusFilter } from './format';
import styles from './TrafficFilters.module.css';

const TEXT_DELAY_MS = 250;

export interface TrafficFiltersProps {
  filter: TrafficFilter;
  onFilter(change: Partial<TrafficFilter>): void;
  textRef: RefObject<HTMLInputElement | null>;
}

export function TrafficFilters({ filter, onFilter, textRef }: TrafficFiltersProps) {
  const [status, setStatus] = useState(filter.status ?? '');
  const [text, setText] = useState(filter.text ?? '');
  const checked = checkStatusFilter(status);

  // Text typed but not applied yet (the delay runs): leaving the area meanwhile applies it, so a
  // visit to another area and back does not lose it (the filter is where the area reopens).
  const unapplied = useRef<string | null>(null);
  const latestOnFilter = useRef(onFilter);
  useEffect(() => {
    latestOnFilter.current = onFilter;
  }, [onFilter]);
  useEffect(() => {
    if ((filter.text ?? '') === text) {
      unapplied.current = null;
      return;
    }
    unapplied.current = text;
    const timer = setTimeout(() => onFilter({ text: text || undefined }), TEXT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, filter.text, onFilter]);
  useEffect(
    () => () => {
      if (unapplied.current !== null) latestOnFilter.current({ text: unapplied.current || undefined });
    },
    [],
  );

  return (
    <div className={styles.filters} role="group" aria-label="Filters">
      {filter.requestId && (
        <span className={styles.requestFilter} title={`Only the exchanges of request ${filter.requestId}`}>
          request <code>{filter.requestId.slice(0, 8)}</code>
          <button
            type="button"
            className="link"
            aria-label="Show every request"
            onClick={() => onFilter({ requestId: undefined })}
          >
            ✕
          </button>
        </span>
      )}
      <select
        aria-label="Target"
        value={filter.target ?? ''}
        onChange={(event) => onFilter({ target: (event.target.value || undefined) as TrafficTarget | undefined })}
      >
        <option value="">All targets</option>
        {TRAFFIC_TARGETS.map((target) => (
          <option key={target} value={target}>
            {target}
          </option>
        ))}
      </select>
      <select
        aria-label="Reason"
        value={filter.reason ?? ''}
        onChange={(event) => onFilter({ reason: event.target.value || undefined })}
      >
        <option value="">Any reason</option>
        {REASONS.map((reason) => (
          <option key={reason} value={reason}>
            {reason}
          </option>
        ))}
      </select>
      <span className={styles.statusFilter}>
        <input
          aria-label="Status"
          placeholder="503, 4xx, none"
          value={status}
          aria-invalid={!checked.ok || undefined}
          aria-describedby={checked.ok ? undefined : 'status-filter-error'}
          size={13}
          onChange={(event) => {
            setStatus(event.target.value);
            const next = checkStatusFilter(event.target.value);
            if (next.ok) onFilter({ status: next.status });
          }}
        />
        {!checked.ok && (
          <span id="status-filter-error" className={`error ${styles.statusError}`} role="alert">
            Status filter not applied: {checked.message}
          </span>
        )}
      </span>
      <input
        ref={textRef}
        type="search"
        aria-label="Search traffic"
        placeholder="text in URL or bodies  ( / )"
        value={text}
        className={styles.textFilter}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onFilter({ text: text || undefined });
        }}
      />
    </div>
  );
}
