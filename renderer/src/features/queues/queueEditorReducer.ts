/**
 * What the queue editor holds between renders, and every way it changes, in one pure reducer: the
 * active row and the selection (less what an edit elsewhere removed), the open dialog and tab, a row to scroll into view, the generate
 * count, a file waiting to replace the queue, a rename under way and a one-line notice.
 */
import type { QueueItem } from '@engine-api/queue-types';
import { plural } from '../../format/plural';
import type { QueueFile } from './transfer';

export type QueueEditorTab = 'players' | 'reports' | 'policies';
export type QueueEditorDialog = { kind: 'add' } | { kind: 'edit'; item: QueueItem } | null;
/** The row the keyboard is on, and the item on it when known (a row not loaded yet has none). */
export type ActiveRow = { index: number; itemId: string | null };
/** A chosen file waiting for its confirm; `key` tells one choice from the next. */
export type Replacement = { file: QueueFile; fileName: string; key: string };

export interface QueueEditorState {
  active: ActiveRow | null;
  selected: ReadonlySet<string>;
  dialog: QueueEditorDialog;
  tab: QueueEditorTab;
  /** A row to scroll into view; a new nonce scrolls again to the same row. */
  reveal: { index: number; nonce: number } | null;
  /** The generate field as typed: checked where it is used, so a half-typed number stays. */
  count: string;
  replacement: Replacement | null;
  replacing: boolean;
  /** The name being typed in place of the title, or null when the title shows. */
  rename: string | null;
  notice: string | null;
  /**
   * The selected items found gone since the line last said something else. A look for them can
   * span an edit elsewhere (some found before it, some after), and its second finding adds to the
   * first instead of replacing it with a smaller count; so does a removal a while later, which
   * the line, still saying the first, would otherwise undercount.
   */
  forgotten: number;
}

export type QueueEditorAction =
  | { type: 'activate'; active: ActiveRow | null }
  | { type: 'located'; index: number; itemId: string; nonce: number }
  | { type: 'notice'; notice: string }
  | { type: 'select'; selected: ReadonlySet<string> }
  /** Items found gone from the queue (an edit elsewhere) leave the selection, and the notice says so. */
  | { type: 'forget'; itemIds: ReadonlySet<string> }
  | { type: 'openDialog'; dialog: NonNullable<QueueEditorDialog> }
  | { type: 'closeDialog' }
  | { type: 'showTab'; tab: QueueEditorTab }
  | { type: 'typeCount'; count: string }
  | { type: 'chooseFile'; replacement: Replacement }
  | { type: 'replace'; replacing: boolean }
  | { type: 'startRename'; name: string }
  | { type: 'typeRename'; name: string }
  | { type: 'endRename' };

const NOTHING_SELECTED: ReadonlySet<string> = new Set();

export const initialQueueEditorState: QueueEditorState = {
  active: null,
  selected: NOTHING_SELECTED,
  dialog: null,
  tab: 'players',
  reveal: null,
  count: '100',
  replacement: null,
  replacing: false,
  rename: null,
  notice: null,
  forgotten: 0,
};

export function queueEditorReducer(state: QueueEditorState, action: QueueEditorAction): QueueEditorState {
  switch (action.type) {
    case 'activate':
      return { ...state, active: action.active };
    // A located item becomes the active row and is scrolled into view.
    case 'located':
      return {
        ...state,
        active: { index: action.index, itemId: action.itemId },
        reveal: { index: action.index, nonce: action.nonce },
      };
    case 'notice':
      return { ...state, notice: action.notice, forgotten: 0 };
    // A choice made since is the newest thing said: what the line said of the last one is stale.
    case 'select':
      return { ...state, selected: action.selected, notice: null, forgotten: 0 };
    case 'forget': {
      // Only what is still selected: the selection may have moved on while the items were looked for.
      const kept = [...state.selected].filter((id) => !action.itemIds.has(id));
      const dropped = state.selected.size - kept.length;
      if (dropped === 0) return state;
      const count = dropped + state.forgotten;
      return {
        ...state,
        selected: kept.length === 0 ? NOTHING_SELECTED : new Set(kept),
        // The ones dropped, not the ones found gone: some may have left the selection meanwhile (review).
        notice: `${plural(count, 'selected item')} removed elsewhere: no longer selected.`,
        forgotten: count,
      };
    }
    case 'openDialog':
      return { ...state, dialog: action.dialog };
    case 'closeDialog':
      return { ...state, dialog: null };
    case 'showTab':
      return { ...state, tab: action.tab };
    case 'typeCount':
      return { ...state, count: action.count };
    case 'chooseFile':
      return { ...state, replacement: action.replacement };
    case 'replace':
      return { ...state, replacing: action.replacing };
    case 'startRename':
    case 'typeRename':
      return { ...state, rename: action.name };
    case 'endRename':
      return { ...state, rename: null };
  }
}
