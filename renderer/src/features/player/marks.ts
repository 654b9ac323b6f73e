/**
 * Marks on a player's timeline: a labelled point the user sets ("before the 404", "after
 * trigger"), at the newest transition when it was set, so it can be found again after scrolling
 * back. Kept per player for the browser tab's life (sessionStorage): a reload keeps them.
 */
export interface TimelineMark {
  id: number;
  label: string;
  /** The newest transition when the mark was set (0: none yet). */
  seq: number;
  /** Engine time it was set at. */
  at: number;
}

const MAX_MARKS = 50;
const MAX_LABEL = 80;

export function addMark(marks: readonly TimelineMark[], label: string, seq: number, at: number): TimelineMark[] {
  const id = marks.reduce((max, m) => Math.max(max, m.id), 0) + 1;
  const text = label.trim().slice(0, MAX_LABEL) || `Mark ${id}`;
  return [...marks, { id, label: text, seq, at }].slice(-MAX_MARKS);
}

export function removeMark(marks: readonly TimelineMark[], id: number): TimelineMark[] {
  return marks.filter((m) => m.id !== id);
}

/** Marks as stored; anything that is not a list of marks reads as none. */
export function parseMarks(stored: string | null): TimelineMark[] {
  if (!stored) return [];
  try {
    const value: unknown = JSON.parse(stored);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (m): m is TimelineMark =>
        typeof m === 'object' &&
        m !== null &&
        Number.isSafeInteger(m.id) &&
        typeof m.label === 'string' &&
        Number.isSafeInteger(m.seq) &&
        typeof m.at === 'number',
    );
  } catch {
    return [];
  }
}

export const marksStorageKey = (playerId: string) => `player-marks:${playerId}`;
