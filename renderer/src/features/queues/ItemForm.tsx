/**
 * Adds or edits one item's track: the fields a player reads from GET /itemWindow. A modal: typed
 * fields are never dropped by a stray Escape — with changes, closing takes a second press.
 */
import { useState, type FormEvent } from 'react';
import type { QueueItem, Track } from '@engine-api/queue-types';
import { ModalDialog } from '../../components/ModalDialog';
import { useConfirmStep } from '../../components/useConfirmStep';
import styles from './ItemForm.module.css';

export interface ItemFormProps {
  /** The item being edited; absent when adding. */
  item?: QueueItem;
  /** Where a new item goes, said in words ("after 12. Quiet Harbour", "at the end"). */
  placement?: string;
  busy: boolean;
  error: string | null;
  onSave(track: Track): void;
  onCancel(): void;
  /** Where focus goes on close when what opened the dialog is gone (an element id). */
  returnFocusTo?: string;
}

interface Fields {
  name: string;
  artist: string;
  album: string;
  seconds: string;
  mediaUrl: string;
  contentType: string;
  imageUrl: string;
}

function fieldsOf(track: Track | undefined): Fields {
  return {
    name: track?.name ?? '',
    artist: track?.artist?.name ?? '',
    album: track?.album?.name ?? '',
    seconds: track?.durationMillis === undefined ? '180' : String(track.durationMillis / 1000),
    mediaUrl: track?.mediaUrl ?? 'https://media.example.com/cloud-queue-console/track.mp3',
    contentType: track?.contentType ?? 'audio/mpeg',
    imageUrl: track?.imageUrl ?? '',
  };
}

export function ItemForm({ item, placement, busy, error, onSave, onCancel, returnFocusTo }: ItemFormProps) {
  const [initial] = useState(() => fieldsOf(item?.track));
  const [fields, setFields] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const discard = useConfirmStep();
  const dirty = (Object.keys(initial) as (keyof Fields)[]).some((name) => fields[name] !== initial[name]);
  const close = () => (dirty ? discard.press(onCancel) : onCancel());
  const set = (name: keyof Fields) => (event: { target: { value: string } }) =>
    setFields({ ...fields, [name]: event.target.value });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const seconds = Number(fields.seconds);
    if (!fields.name.trim()) return setProblem('A title is needed.');
    if (!Number.isFinite(seconds) || seconds < 0) return setProblem('Duration is a number of seconds, zero or more.');
    setProblem(null);
    // Fields this form does not show (custom ones) stay as they were.
    const track: Track = {
      ...item?.track,
      name: fields.name.trim(),
      mediaUrl: fields.mediaUrl.trim(),
      contentType: fields.contentType.trim(),
      durationMillis: Math.round(seconds * 1000),
      artist: { name: fields.artist.trim() },
      album: { name: fields.album.trim() },
    };
    if (fields.imageUrl.trim()) track.imageUrl = fields.imageUrl.trim();
    else delete track.imageUrl;
    onSave(track);
  };

  const title = item ? `Edit ${item.id}` : 'Add item';
  return (
    <ModalDialog label={title} className={styles.dialog} onRequestClose={close} returnFocusTo={returnFocusTo}>
      <form className={styles.itemForm} onSubmit={submit}>
        <h2>{title}</h2>
        {placement && <p className="muted">Goes {placement}.</p>}
        <div className={styles.formGrid}>
          <label>
            Title
            <input data-autofocus value={fields.name} onChange={set('name')} />
          </label>
          <label>
            Artist
            <input value={fields.artist} onChange={set('artist')} />
          </label>
          <label>
            Album
            <input value={fields.album} onChange={set('album')} />
          </label>
          <label>
            Duration (s)
            <input inputMode="decimal" value={fields.seconds} onChange={set('seconds')} />
          </label>
          <label className={styles.wide}>
            Media URL
            <input value={fields.mediaUrl} onChange={set('mediaUrl')} />
          </label>
          <label>
            Content type
            <input value={fields.contentType} onChange={set('contentType')} />
          </label>
          <label>
            Image URL
            <input value={fields.imageUrl} onChange={set('imageUrl')} />
          </label>
        </div>
        {(problem ?? error) && (
          <p className="error" role="alert">
            {problem ?? error}
          </p>
        )}
        <div className={styles.dialogActions}>
          <span className={styles.discardNote} role="status">
            {discard.armed ? 'Unsaved changes: Esc again discards them.' : ''}
          </span>
          <button type="button" className={discard.armed ? 'danger' : undefined} onClick={close}>
            {discard.armed ? 'Discard changes' : 'Cancel'}
          </button>
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Saving…' : item ? 'Save item' : 'Add item'}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
