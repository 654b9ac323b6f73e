/**
 * Adds or edits one item's track: the fields a player reads from GET /itemWindow. A modal: typed
 * fields are never dropped by a stray Escape — with changes, closing takes a second press.
 */
import { useRef, useState, type FormEvent, type InputHTMLAttributes } from 'react';
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

export interface Fields {
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

/** What is wrong with each field, by name; a field not named is fine. */
type Problems = Partial<Record<keyof Fields, string>>;

/** An absolute http(s) URL, as a player fetches it. */
function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === 'http:' || protocol === 'https:';
}

/** Each field's problem, checked as the player would meet the track. */
export function problemsOf(fields: Fields): Problems {
  const problems: Problems = {};
  const seconds = fields.seconds.trim() === '' ? NaN : Number(fields.seconds);
  if (!fields.name.trim()) problems.name = 'A title is needed.';
  if (!Number.isFinite(seconds) || seconds < 0) problems.seconds = 'A number of seconds, zero or more.';
  if (!isHttpUrl(fields.mediaUrl.trim()))
    problems.mediaUrl = 'An http(s) URL the player can fetch, such as https://media.example.com/a.mp3.';
  if (fields.imageUrl.trim() && !isHttpUrl(fields.imageUrl.trim())) problems.imageUrl = 'An http(s) URL, or nothing.';
  return problems;
}

export function ItemForm({ item, placement, busy, error, onSave, onCancel, returnFocusTo }: ItemFormProps) {
  const [initial] = useState(() => fieldsOf(item?.track));
  const [fields, setFields] = useState(initial);
  const [problems, setProblems] = useState<Problems>({});
  const formRef = useRef<HTMLFormElement>(null);
  const discard = useConfirmStep();
  const dirty = (Object.keys(initial) as (keyof Fields)[]).some((name) => fields[name] !== initial[name]);
  const close = () => (dirty ? discard.press(onCancel) : onCancel());
  // A field's problem goes as soon as the field changes: it is said again on the next submit if it stays.
  const set = (name: keyof Fields) => (event: { target: { value: string } }) => {
    setFields({ ...fields, [name]: event.target.value });
    if (problems[name]) setProblems(({ [name]: _gone, ...rest }) => rest);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = problemsOf(fields);
    setProblems(found);
    const first = FIELD_ORDER.find((name) => found[name]);
    if (first) return formRef.current?.querySelector<HTMLInputElement>(`#item-${first}`)?.focus();
    // Fields this form does not show (custom ones) stay as they were.
    const track: Track = {
      ...item?.track,
      name: fields.name.trim(),
      mediaUrl: fields.mediaUrl.trim(),
      contentType: fields.contentType.trim(),
      durationMillis: Math.round(Number(fields.seconds) * 1000),
      artist: { name: fields.artist.trim() },
      album: { name: fields.album.trim() },
    };
    if (fields.imageUrl.trim()) track.imageUrl = fields.imageUrl.trim();
    else delete track.imageUrl;
    onSave(track);
  };

  const field = (
    name: keyof Fields,
    label: string,
    props: InputHTMLAttributes<HTMLInputElement> = {},
    wide = false,
  ) => (
    <label className={wide ? styles.wide : undefined}>
      {label}
      <input
        id={`item-${name}`}
        value={fields[name]}
        onChange={set(name)}
        aria-invalid={problems[name] ? true : undefined}
        aria-describedby={problems[name] ? `item-${name}-problem` : undefined}
        {...props}
      />
      {problems[name] && (
        <span id={`item-${name}-problem`} className={styles.fieldProblem}>
          {problems[name]}
        </span>
      )}
    </label>
  );

  const title = item ? `Edit ${item.id}` : 'Add item';
  return (
    <ModalDialog label={title} className={styles.dialog} onRequestClose={close} returnFocusTo={returnFocusTo}>
      <form ref={formRef} className={styles.itemForm} onSubmit={submit} noValidate>
        <h2>{title}</h2>
        {placement && <p className="muted">Goes {placement}.</p>}
        <div className={styles.formGrid}>
          {field('name', 'Title', { 'data-autofocus': true } as InputHTMLAttributes<HTMLInputElement>)}
          {field('artist', 'Artist')}
          {field('album', 'Album')}
          {field('seconds', 'Duration (s)', { inputMode: 'decimal' })}
          {field('mediaUrl', 'Media URL', { type: 'url' }, true)}
          {field('contentType', 'Content type')}
          {field('imageUrl', 'Image URL', { type: 'url' })}
        </div>
        {error && (
          <p className="error" role="alert">
            {error}
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

/** The fields in the form's order: the first with a problem takes the cursor. */
const FIELD_ORDER: (keyof Fields)[] = ['name', 'artist', 'album', 'seconds', 'mediaUrl', 'contentType', 'imageUrl'];
