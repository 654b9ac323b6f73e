import { describe, expect, it } from 'vitest';
import type { QueueItem } from '@engine-api/queue-types';
import {
  initialQueueEditorState as initial,
  queueEditorReducer as reduce,
  type QueueEditorAction,
  type QueueEditorState,
  type Replacement,
} from './queueEditorReducer';

const item = { id: 'item-1', track: { title: 'One' } } as unknown as QueueItem;
const replacement: Replacement = {
  file: { name: 'Party', items: [] } as unknown as Replacement['file'],
  fileName: 'party.json',
  key: 'party.json@1',
};

/** Every field but the ones an action names stays as it was. */
function changed(before: QueueEditorState, action: QueueEditorAction): Partial<QueueEditorState> {
  const after = reduce(before, action);
  return Object.fromEntries(
    Object.entries(after).filter(([key, value]) => value !== before[key as keyof QueueEditorState]),
  );
}

describe('queueEditorReducer', () => {
  it('starts on the players tab with nothing active, selected, open or armed, and 100 tracks to generate', () => {
    expect(initial).toMatchObject({
      active: null,
      dialog: null,
      tab: 'players',
      reveal: null,
      count: '100',
      replacement: null,
      replacing: false,
      rename: null,
      notice: null,
    });
    expect(initial.selected.size).toBe(0);
  });

  it('activate moves the active row, and back to none', () => {
    const on = reduce(initial, { type: 'activate', active: { index: 4, itemId: 'item-5' } });
    expect(changed(initial, { type: 'activate', active: { index: 4, itemId: 'item-5' } })).toEqual({
      active: { index: 4, itemId: 'item-5' },
    });
    expect(reduce(on, { type: 'activate', active: null }).active).toBeNull();
  });

  it('located makes the item active and scrolls to it, again for the same row with a new nonce', () => {
    const first = reduce(initial, { type: 'located', index: 7, itemId: 'item-8', nonce: 1 });
    expect(changed(initial, { type: 'located', index: 7, itemId: 'item-8', nonce: 1 })).toEqual({
      active: { index: 7, itemId: 'item-8' },
      reveal: { index: 7, nonce: 1 },
    });
    expect(reduce(first, { type: 'located', index: 7, itemId: 'item-8', nonce: 2 }).reveal).toEqual({
      index: 7,
      nonce: 2,
    });
  });

  it('notice keeps the one line to say', () => {
    expect(changed(initial, { type: 'notice', notice: 'item-9: not in this queue' })).toEqual({
      notice: 'item-9: not in this queue',
    });
  });

  it('select replaces the selection, and an empty set clears it', () => {
    const said = reduce(initial, { type: 'notice', notice: '1 selected item removed elsewhere: no longer selected.' });
    const picked = reduce(said, { type: 'select', selected: new Set(['a', 'b']) });
    expect(picked.notice).toBeNull();
    expect([...picked.selected]).toEqual(['a', 'b']);
    expect(reduce(picked, { type: 'select', selected: new Set() }).selected.size).toBe(0);
  });

  it('forget drops the items an edit elsewhere removed, says so, and keeps a selection made since', () => {
    const picked = reduce(initial, { type: 'select', selected: new Set(['a', 'b', 'c']) });
    const kept = reduce(picked, { type: 'forget', itemIds: new Set(['a', 'c']) });
    expect([...kept.selected]).toEqual(['b']);
    expect(kept.notice).toBe('2 selected items removed elsewhere: no longer selected.');
    // Gone, but no longer selected (the user chose again while the items were looked for): nothing to say.
    expect(reduce(kept, { type: 'forget', itemIds: new Set(['a']) })).toBe(kept);
    // Counted as dropped, not as found gone: 'a' had left already (one more than the line said).
    const last = reduce(kept, { type: 'forget', itemIds: new Set(['a', 'b']) });
    expect(last.selected.size).toBe(0);
    expect(last.notice).toBe('3 selected items removed elsewhere: no longer selected.');
  });

  it('forget counts what it dropped since the line last said something else', () => {
    const picked = reduce(initial, { type: 'select', selected: new Set(['a', 'b', 'c']) });
    // A look saw 'a' gone, and its next round (an edit landed during the first) saw 'c'.
    const first = reduce(picked, { type: 'forget', itemIds: new Set(['a']) });
    expect(first.notice).toBe('1 selected item removed elsewhere: no longer selected.');
    const both = reduce(first, { type: 'forget', itemIds: new Set(['c']) });
    expect([...both.selected]).toEqual(['b']);
    expect(both.notice).toBe('2 selected items removed elsewhere: no longer selected.');
    // Once the line said something else, the count is of what came since.
    for (const since of [
      reduce(first, { type: 'select', selected: new Set(['b', 'c']) }),
      reduce(first, { type: 'notice', notice: 'item-9: no item' }),
    ]) {
      expect(reduce(since, { type: 'forget', itemIds: new Set(['c']) }).notice).toBe(
        '1 selected item removed elsewhere: no longer selected.',
      );
    }
  });

  it('openDialog opens the add or the edit dialog, and closeDialog closes either', () => {
    expect(changed(initial, { type: 'openDialog', dialog: { kind: 'add' } })).toEqual({ dialog: { kind: 'add' } });
    const editing = reduce(initial, { type: 'openDialog', dialog: { kind: 'edit', item } });
    expect(editing.dialog).toEqual({ kind: 'edit', item });
    expect(changed(editing, { type: 'closeDialog' })).toEqual({ dialog: null });
  });

  it('showTab switches the details tab', () => {
    expect(changed(initial, { type: 'showTab', tab: 'policies' })).toEqual({ tab: 'policies' });
    expect(reduce(initial, { type: 'showTab', tab: 'reports' }).tab).toBe('reports');
  });

  it('typeCount keeps the field as typed, even when it is not a number yet', () => {
    expect(changed(initial, { type: 'typeCount', count: '1e' })).toEqual({ count: '1e' });
    expect(reduce(initial, { type: 'typeCount', count: '' }).count).toBe('');
  });

  it('chooseFile holds the file for its confirm, and replace marks the replace running then done', () => {
    const chosen = reduce(initial, { type: 'chooseFile', replacement });
    expect(changed(initial, { type: 'chooseFile', replacement })).toEqual({ replacement });
    const running = reduce(chosen, { type: 'replace', replacing: true });
    expect(running.replacing).toBe(true);
    expect(changed(running, { type: 'replace', replacing: false })).toEqual({ replacing: false });
  });

  it('startRename, typeRename and endRename edit the name in place, then show the title again', () => {
    const started = reduce(initial, { type: 'startRename', name: 'Party Mix' });
    expect(started.rename).toBe('Party Mix');
    const typed = reduce(started, { type: 'typeRename', name: 'Party Mix 2' });
    expect(typed.rename).toBe('Party Mix 2');
    expect(reduce(typed, { type: 'typeRename', name: '' }).rename).toBe('');
    expect(changed(typed, { type: 'endRename' })).toEqual({ rename: null });
  });

  it('never changes the state it is given', () => {
    const frozen = Object.freeze({ ...initial });
    expect(() => reduce(frozen, { type: 'showTab', tab: 'reports' })).not.toThrow();
    expect(frozen.tab).toBe('players');
  });
});
