/**
 * The item rows' fixed columns sized to what the loaded rows hold (longest index, duration, id and
 * marks), so title and artist share all the rest and every row keeps one grid while it scrolls.
 */
import type { QueueListItem } from '@engine-api/queue-types';
import { formatDuration } from './format';
import type { RowMarks } from './marks';

/** A 12 px monospace character, rounded up. */
const MONO_CHAR_PX = 7.5;
/** An 11 px sans-serif character in a mark, on the generous side. */
const MARK_CHAR_PX = 6.5;
const PILL_PADDING_PX = 12;
const WINDOW_MARK_PX = 6;
const MARK_GAP_PX = 4;
/** Marks beyond this are cut: the title keeps its room. */
const MARKS_MAX_PX = 260;

export interface ItemColumns {
  indexPx: number;
  durationPx: number;
  idPx: number;
  marksPx: number;
}

const mono = (chars: number) => Math.ceil(chars * MONO_CHAR_PX);
const pill = (text: string) => Math.ceil([...text].length * MARK_CHAR_PX) + PILL_PADDING_PX;

/** The width of one row's marks: its players' windows, the players on it, its policies and reports. */
export function marksWidth(item: QueueListItem, marks: RowMarks): number {
  const row = marks.get(item.id);
  const parts = [
    ...(row?.windows ?? []).map(() => WINDOW_MARK_PX),
    ...(row?.current ?? []).map((mark) => pill(`▶ ${mark.label}`)),
    ...(item.policies ? [pill('policies')] : []),
    ...(item.reports ? [pill(`${item.reports.count} rep`)] : []),
  ];
  if (parts.length === 0) return 0;
  return parts.reduce((sum, part) => sum + part, 0) + MARK_GAP_PX * (parts.length - 1);
}

export function itemColumns(total: number, items: Iterable<QueueListItem>, marks: RowMarks): ItemColumns {
  let durationChars = 4;
  let idChars = 6;
  let marksPx = 0;
  for (const item of items) {
    durationChars = Math.max(durationChars, formatDuration(item.track.durationMillis).length);
    idChars = Math.max(idChars, item.id.length);
    marksPx = Math.max(marksPx, marksWidth(item, marks));
  }
  return {
    indexPx: mono(Math.max(2, String(total).length)),
    durationPx: mono(durationChars),
    idPx: mono(idChars),
    marksPx: Math.min(MARKS_MAX_PX, marksPx),
  };
}
