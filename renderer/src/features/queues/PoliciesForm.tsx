/**
 * Playback policies and report intervals (GET /context). Saving moves contextVersion and
 * queueVersion; players load policies when a queue is loaded (docs/contract/platform.md §4.3).
 */
import { useState, type FormEvent } from 'react';
import type { PlaybackPolicies, QueueContext, ReportSettings } from '@engine-api/queue-types';
import { useQueueCommand } from '../../queries/queues';
import styles from './PoliciesForm.module.css';

const FLAGS: { key: keyof PlaybackPolicies & string; label: string; hint: string }[] = [
  { key: 'canSkip', label: 'canSkip', hint: 'Skip to the next item' },
  {
    key: 'limitedSkips',
    label: 'limitedSkips',
    hint: 'The server counts skips: players send skipNext/skipPrev and wait for the answer',
  },
  { key: 'canSkipBack', label: 'canSkipBack', hint: 'Skip to the previous item' },
  { key: 'canSeek', label: 'canSeek', hint: 'Seek within an item' },
  { key: 'canSkipToItem', label: 'canSkipToItem', hint: 'Jump to any item' },
  {
    key: 'notifyUserIntent',
    label: 'notifyUserIntent',
    hint: 'Players send pause, play, skipNext and skipPrev reasons',
  },
  { key: 'canRepeat', label: 'canRepeat', hint: 'Repeat the queue' },
  { key: 'canRepeatOne', label: 'canRepeatOne', hint: 'Repeat one item' },
  { key: 'canCrossfade', label: 'canCrossfade', hint: 'Crossfade between items' },
  { key: 'canShuffle', label: 'canShuffle', hint: 'Shuffle' },
  { key: 'canResume', label: 'canResume', hint: 'Report progress for resuming later' },
];

export function PoliciesForm({ queueId, context }: { queueId: string; context: QueueContext }) {
  const [policies, setPolicies] = useState<PlaybackPolicies>(context.playbackPolicies);
  const [reports, setReports] = useState<ReportSettings>(context.reports);
  const [pauseTtl, setPauseTtl] = useState(String(context.playbackPolicies.pauseTtlSec));
  const [problem, setProblem] = useState<string | null>(null);
  const update = useQueueCommand('queues.update');

  const dirty =
    JSON.stringify({ ...policies, pauseTtlSec: pauseTtl }) !==
      JSON.stringify({ ...context.playbackPolicies, pauseTtlSec: String(context.playbackPolicies.pauseTtlSec) }) ||
    JSON.stringify(reports) !== JSON.stringify(context.reports);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const pauseTtlSec = Number(pauseTtl);
    if (!Number.isInteger(pauseTtlSec) || pauseTtlSec < 0)
      return setProblem('pauseTtlSec is a whole number of seconds, zero or more.');
    for (const [name, value] of Object.entries(reports)) {
      if (typeof value === 'number' && (!Number.isInteger(value) || value < 0))
        return setProblem(`${name} is a whole number of milliseconds, zero or more.`);
    }
    setProblem(null);
    update.mutate({ id: queueId, playbackPolicies: { ...policies, pauseTtlSec }, reports });
  };

  const millis = (key: 'sendUpdateAfterMillis' | 'periodicIntervalMillis') => (
    <label>
      {key}
      <input
        inputMode="numeric"
        value={String(reports[key])}
        onChange={(event) =>
          setReports({ ...reports, [key]: event.target.value === '' ? Number.NaN : Number(event.target.value) })
        }
      />
    </label>
  );

  return (
    <form className={styles.policiesForm} onSubmit={submit} aria-label="Playback policies and reports">
      <fieldset>
        <legend>Playback policies</legend>
        <div className={styles.flags}>
          {FLAGS.map(({ key, label, hint }) => (
            <label key={key} title={hint} className={styles.policyFlag}>
              <input
                type="checkbox"
                checked={policies[key] === true}
                onChange={(event) => setPolicies({ ...policies, [key]: event.target.checked })}
              />
              <code>{label}</code>
            </label>
          ))}
        </div>
        <label>
          pauseTtlSec
          <input inputMode="numeric" value={pauseTtl} onChange={(event) => setPauseTtl(event.target.value)} />
        </label>
      </fieldset>
      <fieldset>
        <legend>Reports (timePlayed)</legend>
        {millis('sendUpdateAfterMillis')}
        {millis('periodicIntervalMillis')}
        <label className={styles.policyFlag}>
          <input
            type="checkbox"
            checked={reports.sendPlaybackActions}
            onChange={(event) => setReports({ ...reports, sendPlaybackActions: event.target.checked })}
          />
          <code>sendPlaybackActions</code>
        </label>
      </fieldset>
      {(problem ?? (update.isError ? update.error.message : null)) && (
        <p className="error" role="alert">
          {problem ?? update.error?.message}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={!dirty || update.isPending}>
          {update.isPending ? 'Saving…' : 'Save policies'}
        </button>
        <span className="muted">contextVersion {context.contextVersion}</span>
      </div>
    </form>
  );
}
