/**
 * One queue, live: its address and token, its items (add, remove, reorder, edit, generate), its
 * policies and report settings, and what each player sees of it. Every edit shows the new
 * queueVersion at once; GET /itemWindow answers with it from that moment. What destroys (removing
 * items, replacing them from a file, deleting the queue) arms first and acts on a second press.
 */
import { useCallback, useMemo, useReducer, useRef } from 'react';
import type { QueueSummary, Track } from '@engine-api/queue-types';
import { useApi } from '../../api/context';
import { downloadJson } from '../../components/download';
import { FileButton } from '../../components/FileButton';
import { onRovingKeyDown, rovingTabIndex } from '../../components/roving';
import { IGNORE_HELD_KEY, useConfirmStep, useConfirmTarget } from '../../components/useConfirmStep';
import { useQueueActivity, useQueueCommand, useQueueContext } from '../../queries/queues';
import { ConnectionInfo } from './ConnectionInfo';
import { plural } from '../../format/plural';
import { ItemForm } from './ItemForm';
import { ItemList, itemListId } from './ItemList';
import { playerMarks } from './marks';
import { PlayersPanel } from './PlayersPanel';
import { PoliciesForm } from './PoliciesForm';
import { readWholeQueue } from './read-queue';
import { ReportsPanel } from './ReportsPanel';
import { exportFileName, toQueueFile } from './transfer';
import { useFileImport } from './useFileImport';
import { useFocusBack } from './useFocusBack';
import { useSelectionKept } from './useSelectionKept';
import { generationNote, useGenerationStore } from './generation-store';
import { initialQueueEditorState, queueEditorReducer, type Replacement } from './queueEditorReducer';
import styles from './QueueEditor.module.css';

/** One removal's key: the same items, whatever order they were picked in. */
const removalKey = (itemIds: readonly string[]) => [...itemIds].sort().join(' ');

const NO_ITEMS: ReadonlySet<string> = new Set();

export function QueueEditor({ queue, onDeleted }: { queue: QueueSummary; onDeleted(): void }) {
  const api = useApi();
  const [state, dispatch] = useReducer(queueEditorReducer, initialQueueEditorState);
  const { active, selected, dialog, tab, reveal, count, replacement, replacing, rename, notice } = state;
  useSelectionKept(api, queue.id, queue.queueVersion, selected, dispatch);
  const confirmDelete = useConfirmStep();
  const confirmRemove = useConfirmTarget();
  const confirmReplace = useConfirmTarget();
  const fileInput = useRef<HTMLInputElement>(null);

  const context = useQueueContext(queue.id);
  const activity = useQueueActivity(queue.id);
  const { marks, colors } = useMemo(() => playerMarks(activity.data), [activity.data]);

  const add = useQueueCommand('queues.items.add');
  const updateItem = useQueueCommand('queues.items.update');
  const remove = useQueueCommand('queues.items.remove');
  const move = useQueueCommand('queues.items.move');
  const generate = useQueueCommand('queues.items.generate');
  const stopGenerating = useQueueCommand('queues.items.generate.stop');
  const generation = useGenerationStore((s) => s.byQueue[queue.id]);
  const generating = generation?.state === 'running' ? generation : null;
  // Generate and Stop take each other's place (and Generate is off while its call runs): focus
  // follows to the one shown instead of dropping to <body>.
  const generateButton = useRef<HTMLButtonElement>(null);
  const stopButton = useRef<HTMLButtonElement>(null);
  useFocusBack(!generating, stopButton);
  useFocusBack(generate.isPending || generating !== null, generateButton);
  const startGenerating = () => {
    useGenerationStore.getState().forget(queue.id);
    generate.mutate({ id: queue.id, count: generateCount, afterItemId: active?.itemId ?? undefined });
  };
  const update = useQueueCommand('queues.update');
  const deleteQueue = useQueueCommand('queues.delete');
  const edits = [add, updateItem, remove, move, generate, stopGenerating, update, deleteQueue];
  const failed = edits.find((m) => m.isError);

  // A chosen file only arms the replace: nothing changes until "Confirm replace" is pressed.
  const replacer = useFileImport(async (file, fileName) => {
    const key = `${fileName}@${performance.now()}`;
    dispatch({ type: 'chooseFile', replacement: { file, fileName, key } });
    confirmReplace.press(key, () => {});
  });
  const replaceArmed = replacement !== null && confirmReplace.armed === replacement.key;
  const confirmReplacement = (chosen: Replacement) =>
    confirmReplace.press(chosen.key, () => {
      dispatch({ type: 'replace', replacing: true });
      update.mutate(
        {
          id: queue.id,
          name: chosen.file.name,
          items: chosen.file.items as never,
          playbackPolicies: chosen.file.playbackPolicies as never,
          reports: chosen.file.reports as never,
          container: chosen.file.container as never,
        },
        { onSettled: () => dispatch({ type: 'replace', replacing: false }) },
      );
    });
  // The confirm button goes when it acts or disarms: focus goes back to the file chooser (once it is
  // enabled again, after the replace).
  useFocusBack(replaceArmed || replacing, fileInput);

  const showItem = async (itemId: string) => {
    try {
      const { index } = await api.call('queues.items.locate', { id: queue.id, itemId });
      dispatch({ type: 'located', index, itemId, nonce: Date.now() });
    } catch (error) {
      dispatch({ type: 'notice', notice: `${itemId}: ${(error as Error).message}` });
    }
  };

  const activeIndex = active?.index ?? null;
  const onActive = useCallback(
    (index: number | null, itemId?: string) =>
      dispatch({ type: 'activate', active: index === null ? null : { index, itemId: itemId ?? null } }),
    [],
  );
  const placement = activeIndex === null ? 'at the end' : `after item ${activeIndex + 1}`;
  const saveItem = (track: Track) => {
    if (dialog?.kind === 'edit') {
      updateItem.mutate(
        { id: queue.id, itemId: dialog.item.id, track },
        { onSuccess: () => dispatch({ type: 'closeDialog' }) },
      );
    } else {
      const afterItemId = active?.itemId ?? undefined;
      add.mutate(
        { id: queue.id, items: [{ track }], afterItemId },
        { onSuccess: () => dispatch({ type: 'closeDialog' }) },
      );
    }
  };

  const exportQueue = async () => {
    const view = await readWholeQueue(api, queue);
    downloadJson(exportFileName(view.name), toQueueFile(view));
  };

  const targets = selected.size > 0 ? [...selected] : active?.itemId ? [active.itemId] : [];
  // Every removal asks first: there is no undo, and an item added back would get a new id.
  // The selection is let go as the removal goes out: its new version comes before the call's own
  // answer, and the items looked up then would read as removed elsewhere (review).
  const requestRemove = (itemIds: string[]) =>
    confirmRemove.press(removalKey(itemIds), () => {
      dispatch({ type: 'select', selected: new Set() });
      remove.mutate({ id: queue.id, itemIds });
    });
  const removeArmed = targets.length > 0 && confirmRemove.armed === removalKey(targets);
  const removeNote = removeArmed
    ? `Remove ${targets.length === 1 ? targets[0] : plural(targets.length, 'item')}? Press Delete again, or Confirm remove.`
    : null;
  const replaceNote = replaceArmed
    ? `Replace ${plural(queue.itemCount, 'item')} with ${plural(replacement.file.items.length, 'item')} from ${replacement.fileName}?`
    : null;
  const armedNote = replaceNote ?? removeNote;
  const status =
    armedNote ?? failed?.error?.message ?? replacer.error ?? notice ?? (generating ? null : generationNote(generation));
  const generateCount = Number(count);
  const canGenerate = Number.isInteger(generateCount) && generateCount >= 1 && generateCount <= 1_000_000;
  // Said beside the field, not only a greyed button (audit): what a count may be.
  const countProblem = count.trim() !== '' && !canGenerate ? 'A whole number from 1 to 1,000,000.' : null;

  return (
    <section className={styles.queueEditor} aria-label={`Queue ${queue.name}`}>
      <header className={styles.queueHeader}>
        {rename === null ? (
          <h2>
            <button
              type="button"
              className={styles.queueTitle}
              title="Rename"
              onClick={() => dispatch({ type: 'startRename', name: queue.name })}
            >
              {queue.name}
            </button>
          </h2>
        ) : (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (rename.trim() && rename.trim() !== queue.name) update.mutate({ id: queue.id, name: rename.trim() });
              dispatch({ type: 'endRename' });
            }}
          >
            <input
              aria-label="Queue name"
              autoFocus
              value={rename}
              onChange={(event) => dispatch({ type: 'typeRename', name: event.target.value })}
              onBlur={() => dispatch({ type: 'endRename' })}
              onKeyDown={(event) => event.key === 'Escape' && dispatch({ type: 'endRename' })}
            />
          </form>
        )}
        <span
          className={styles.versionBadge}
          key={queue.queueVersion}
          aria-label="Queue version"
          data-version={queue.queueVersion}
          title="queueVersion: changes with every edit"
        >
          queueVersion {queue.queueVersion}
        </span>
        <span className="muted">
          <span data-item-count={queue.itemCount}>{plural(queue.itemCount, 'item')}</span> · <code>{queue.id}</code>
        </span>
        <div className={styles.headerActions}>
          <button type="button" onClick={() => void exportQueue()}>
            Export JSON
          </button>
          <FileButton
            label="Replace from file…"
            busyLabel="Replacing…"
            busy={replacer.busy || replacing}
            title="Replace this queue's items and settings with a file's (items that carry an id of this queue keep it); asks before it replaces"
            inputRef={fileInput}
            onChange={replacer.onChange}
          />
          <button
            type="button"
            className={confirmDelete.armed ? 'danger' : undefined}
            {...IGNORE_HELD_KEY}
            onClick={() => confirmDelete.press(() => deleteQueue.mutate({ id: queue.id }, { onSuccess: onDeleted }))}
          >
            {confirmDelete.armed ? 'Confirm delete' : 'Delete queue'}
          </button>
        </div>
      </header>

      <ConnectionInfo queue={queue} />

      <div className={styles.itemToolbar} role="toolbar" aria-label="Item actions">
        <button type="button" onClick={() => dispatch({ type: 'openDialog', dialog: { kind: 'add' } })}>
          Add item
        </button>
        {generating ? (
          // Made in edits of 5,000: the list grows as it goes, and Stop keeps what was made.
          <span className={styles.generate} role="group" aria-label="Generating sample tracks">
            <progress aria-label="Sample tracks made" max={generating.total} value={generating.done} />
            <span className="muted">
              {generating.done.toLocaleString()} / {generating.total.toLocaleString()}
            </span>
            <button
              type="button"
              ref={stopButton}
              disabled={stopGenerating.isPending}
              onClick={() => stopGenerating.mutate({ id: queue.id })}
            >
              Stop
            </button>
          </span>
        ) : (
          <span className={styles.generate}>
            <input
              aria-label="Number of sample tracks"
              inputMode="numeric"
              value={count}
              aria-invalid={countProblem !== null}
              aria-describedby={countProblem ? 'generate-count-problem' : undefined}
              title={countProblem ?? 'sample tracks to add after the selected item: 1 to 1,000,000'}
              onChange={(event) => dispatch({ type: 'typeCount', count: event.target.value })}
            />
            {countProblem && (
              <span id="generate-count-problem" className="error" role="alert">
                {countProblem}
              </span>
            )}
            <button
              type="button"
              ref={generateButton}
              disabled={!canGenerate || generate.isPending}
              onClick={startGenerating}
            >
              {generate.isPending ? 'Generating…' : 'Generate'}
            </button>
          </span>
        )}
        <button
          type="button"
          className={removeArmed ? 'danger' : undefined}
          disabled={targets.length === 0 || remove.isPending}
          {...IGNORE_HELD_KEY}
          onClick={() => requestRemove(targets)}
        >
          {removeArmed ? 'Confirm remove' : 'Remove'}
          {targets.length > 1 ? ` ${targets.length}` : ''}
        </button>
        {/* What there is to say (an armed step, an error) takes the keys hint's place, so the list stays put. */}
        {!status && (
          <span className={`muted ${styles.hint}`}>
            ↑↓ move · Space select · Alt+↑↓ reorder · Del remove · Enter edit · drag to reorder
          </span>
        )}
        <span role="status" aria-live="polite">
          {armedNote ? (
            <span className={styles.armedNote} id={`armed-${queue.id}`}>
              {armedNote}
            </span>
          ) : failed ? (
            <span className="error">{failed.error?.message}</span>
          ) : (
            status
          )}
        </span>
        {replaceArmed && (
          <button
            type="button"
            className="danger"
            autoFocus
            aria-describedby={`armed-${queue.id}`}
            {...IGNORE_HELD_KEY}
            onClick={() => confirmReplacement(replacement)}
          >
            Confirm replace
          </button>
        )}
      </div>

      <div className={styles.queueBody}>
        <ItemList
          queueId={queue.id}
          total={queue.itemCount}
          active={activeIndex}
          activeItemId={active?.itemId ?? null}
          onActive={onActive}
          selected={selected}
          onSelected={(ids) => dispatch({ type: 'select', selected: ids })}
          marks={marks}
          onEdit={(item) => dispatch({ type: 'openDialog', dialog: { kind: 'edit', item } })}
          onMove={(itemIds, afterItemId, activeAfter) => {
            // The active row goes with its item at once; the rows catch up when the move is back.
            const before = active;
            const moved = before?.itemId && itemIds.includes(before.itemId) ? before.itemId : null;
            dispatch({ type: 'activate', active: { index: activeAfter, itemId: moved } });
            move.mutate(
              { id: queue.id, itemIds, afterItemId },
              { onError: () => dispatch({ type: 'activate', active: before }) },
            );
          }}
          moving={move.isPending}
          onRemove={requestRemove}
          removing={removeArmed ? new Set(targets) : NO_ITEMS}
          reveal={reveal}
        />
        <aside className={styles.queueSide}>
          <div className={styles.tabs} role="tablist" aria-label="Queue details" onKeyDown={onRovingKeyDown}>
            {(['players', 'reports', 'policies'] as const).map((name) => (
              <button
                key={name}
                id={`queue-tab-${name}`}
                type="button"
                role="tab"
                aria-selected={tab === name}
                aria-controls={tab === name ? 'queue-tab-panel' : undefined}
                tabIndex={rovingTabIndex(tab === name, name === 'players', true)}
                onClick={() => dispatch({ type: 'showTab', tab: name })}
              >
                {name === 'players' ? 'Players' : name === 'reports' ? 'Reports' : 'Policies'}
              </button>
            ))}
          </div>
          {/* Focusable, as a tab panel is: its tables scroll sideways, and a keyboard user scrolls them from here. */}
          <div
            role="tabpanel"
            id="queue-tab-panel"
            tabIndex={0}
            aria-labelledby={`queue-tab-${tab}`}
            className={styles.tabPanel}
          >
            {tab === 'players' && (
              <PlayersPanel
                activity={activity.data}
                error={activity.error ? activity.error.message : null}
                colors={colors}
                onShowItem={(itemId) => void showItem(itemId)}
              />
            )}
            {tab === 'reports' && <ReportsPanel queueId={queue.id} itemId={active?.itemId ?? null} />}
            {tab === 'policies' && context.data && (
              <PoliciesForm key={context.data.contextVersion} queueId={queue.id} context={context.data} />
            )}
          </div>
        </aside>
      </div>

      {dialog && (
        <ItemForm
          item={dialog.kind === 'edit' ? dialog.item : undefined}
          placement={dialog.kind === 'add' ? placement : undefined}
          busy={add.isPending || updateItem.isPending}
          error={(dialog.kind === 'edit' ? updateItem : add).error?.message ?? null}
          onSave={saveItem}
          onCancel={() => dispatch({ type: 'closeDialog' })}
          returnFocusTo={itemListId(queue.id)}
        />
      )}
    </section>
  );
}
