/**
 * The player's transitions with the workbench's controls: follow (new transitions come in at
 * the top) or pause (the list holds still to be read and scrolled back, with a count of what came
 * since), and marks the user sets and jumps back to. A mark points at the newest transition when
 * it was set; jumping to it is the page's `?transition=` link, so it shows as any marked row.
 */
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { PlayerTransition } from '@engine-api/player-types';
import { Timeline } from '../../components/Timeline';
import { formatEngineClock } from '../../format/engine-time';
import { addMark, removeMark, type TimelineMark } from './marks';
import { WorkbenchField, WorkbenchToolbarForm } from './WorkbenchToolbar';
import styles from './WorkbenchTimeline.module.css';

interface Props {
  playerId: string;
  /** What the timeline shows: the live list, or what it was when paused. */
  transitions: PlayerTransition[];
  marked: number | null;
  marks: TimelineMark[];
  onMarks(marks: TimelineMark[]): void;
  /** Engine time now, for a mark set before any transition. */
  now: number;
}

export function WorkbenchTimeline({ playerId, transitions, marked, marks, onMarks, now }: Props) {
  const [label, setLabel] = useState('');
  const newest = transitions.at(-1);
  return (
    <>
      <WorkbenchToolbarForm
        aria-label="Mark the timeline"
        onSubmit={(e) => {
          e.preventDefault();
          onMarks(addMark(marks, label, newest?.seq ?? 0, newest?.at ?? now));
          setLabel('');
        }}
      >
        <WorkbenchField label="Mark label">
          <input
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            placeholder={`Mark ${marks.length + 1}`}
            maxLength={80}
          />
        </WorkbenchField>
        <button type="submit">Mark</button>
        {marks.length > 0 && (
          <ul className={styles.marks} aria-label="Marks">
            {marks.map((m) => (
              <li key={m.id} data-current={m.seq === marked || undefined}>
                {m.seq > 0 ? (
                  <Link
                    to="/player"
                    search={{ player: playerId, transition: m.seq }}
                    title={`At ${formatEngineClock(m.at)}, after transition #${m.seq}`}
                  >
                    ⚑ {m.label}
                  </Link>
                ) : (
                  <span title={`At ${formatEngineClock(m.at)}, before any transition`}>⚑ {m.label}</span>
                )}
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Remove mark ${m.label}`}
                  onClick={() => onMarks(removeMark(marks, m.id))}
                >
                  ✕
                </button>
              </li>
            ))}
          </ul>
        )}
      </WorkbenchToolbarForm>
      <Timeline transitions={transitions} marked={marked} />
    </>
  );
}
