/**
 * What to check: a server's base URL and the Authorization its requests carry, typed or pasted, or
 * filled from one of the console's own queues. A field the engine would refuse is said so beside
 * it, with what was typed kept and the field focused; Enter in either field runs the checks.
 */
import { useRef, useState, type FormEvent } from 'react';
import type { QueueSummary } from '@engine-api/queue-types';
import { useConformanceRuns, useStartRun } from '../../queries/conformance';
import { useQueueCommand, useQueueList } from '../../queries/queues';
import { useEngineNow } from '../../stores/clock';
import { expiryText } from '../../format/span';
import { usePaletteActions } from '../../stores/palette-actions';
import { SecretInput } from './SecretInput';
import { checkAuthorization, checkBaseUrl } from './target';
import { Hint } from './Hint';
import styles from './CheckForm.module.css';

interface Fields {
  baseUrl: string;
  authorization: string;
}

type FieldErrors = Partial<Record<keyof Fields, string>>;

/** The fields a queue fills: its base URL and `Bearer <accessToken>`, as a loadCloudQueue carries them. */
function queueFields(queue: QueueSummary): Fields {
  return { baseUrl: queue.queueBaseUrl, authorization: queue.httpAuthorization };
}

export function CheckForm({ onStarted }: { onStarted(runId: string): void }) {
  const { data: queues = [] } = useQueueList();
  const { data: runs = [] } = useConformanceRuns();
  const start = useStartRun();
  // A run of the same server going on when Run checks was pressed: a second would double the
  // server's load and race the first (ui-x3 U6). Said, with the way to it.
  const [busyWith, setBusyWith] = useState<string | null>(null);
  const [typed, setTyped] = useState<Fields>({ baseUrl: '', authorization: '' });
  // While the fields are a queue's, they follow it: a new token issued meanwhile is the one sent.
  const [queueId, setQueueId] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  // The name of the queue whose token was taken out when the base URL left its server.
  const [tokenDropped, setTokenDropped] = useState<string | null>(null);
  const baseUrlRef = useRef<HTMLInputElement>(null);
  const authorizationRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // As Enter in a field: a field the engine would refuse is said so, and focused.
  usePaletteActions({ 'conformance.run': () => formRef.current?.requestSubmit() });

  // Said while that run goes on: once it has ended, Run checks starts this one.
  const busy = runs.find((run) => run.id === busyWith && run.status === 'running') ?? null;
  const queue = queues.find((q) => q.id === queueId) ?? null;
  const fields = queue ? queueFields(queue) : typed;
  // A queue's token past its engine-time expiry (a +24h jump outlives a day's token): the run
  // would be refused 401 at every call and read as a failing server (audit-ui W8). Said, with a
  // new token a click away; the fields follow the queue, so the new one is what the run sends.
  const now = useEngineNow();
  const issue = useQueueCommand('queues.token.issue');
  const expired = queue !== null && now !== null && now >= queue.accessTokenExpiresAt;

  const edit = (change: Partial<Fields>) => {
    const next = { ...fields, ...change };
    // A queue's token is for the console's own server: a base URL typed elsewhere must not carry
    // it there (audit). It is taken out, and the hint says why.
    const owner = queues.find((q) => q.httpAuthorization !== '' && q.httpAuthorization === next.authorization);
    if (change.baseUrl !== undefined && owner && originOf(next.baseUrl) !== originOf(owner.queueBaseUrl)) {
      next.authorization = '';
      setTokenDropped(owner.name);
    } else if (change.authorization !== undefined) setTokenDropped(null);
    setTyped(next);
    setQueueId(null);
    setErrors((shown) => ({ ...shown, ...Object.fromEntries(Object.keys(change).map((key) => [key, undefined])) }));
    setBusyWith(null);
    start.reset();
  };

  const pickQueue = (id: string) => {
    setTokenDropped(null);
    const picked = queues.find((q) => q.id === id);
    if (picked) setTyped(queueFields(picked));
    setQueueId(picked ? id : null);
    setErrors({});
    setBusyWith(null);
    start.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const baseUrl = checkBaseUrl(fields.baseUrl);
    const authorization = checkAuthorization(fields.authorization);
    setErrors({
      baseUrl: baseUrl.ok ? undefined : baseUrl.message,
      authorization: authorization.ok ? undefined : authorization.message,
    });
    if (!baseUrl.ok) return baseUrlRef.current?.focus();
    if (!authorization.ok) return authorizationRef.current?.focus();
    // Compared as URLs: a host's case, a default port, a dot segment are the same server.
    const going = runs.find((run) => run.status === 'running' && sameUrl(run.baseUrl, baseUrl.value));
    setBusyWith(going?.id ?? null);
    if (going) return;
    start.mutate(
      authorization.value === undefined
        ? { baseUrl: baseUrl.value }
        : { baseUrl: baseUrl.value, authorization: authorization.value },
      {
        onSuccess: ({ id }) => onStarted(id),
      },
    );
  };

  return (
    <form ref={formRef} className={styles.form} onSubmit={submit} noValidate aria-labelledby="check-form-title">
      <div className={styles.panelHead}>
        <h2 id="check-form-title">Server to check</h2>
      </div>
      <label className={styles.field}>
        <span>One of the console’s queues</span>
        <select
          value={queue ? queue.id : ''}
          onChange={(event) => pickQueue(event.target.value)}
          disabled={queues.length === 0}
        >
          <option value="">
            {queues.length === 0 ? 'No queues yet (Queues area)' : 'Choose to fill the fields below…'}
          </option>
          {queues.map((q) => (
            <option key={q.id} value={q.id}>
              {q.name} · {q.itemCount.toLocaleString('en-US')} item{q.itemCount === 1 ? '' : 's'}
            </option>
          ))}
        </select>
      </label>
      <div className={styles.field}>
        <label htmlFor="check-base-url">Base URL</label>
        <input
          id="check-base-url"
          className={styles.baseUrl}
          ref={baseUrlRef}
          type="url"
          inputMode="url"
          autoComplete="url"
          spellCheck={false}
          placeholder="https://queue.example.com/v2.3/"
          value={fields.baseUrl}
          aria-invalid={errors.baseUrl ? true : undefined}
          aria-describedby={errors.baseUrl ? 'check-base-url-error' : 'check-base-url-hint'}
          onChange={(event) => edit({ baseUrl: event.target.value })}
        />
        {errors.baseUrl ? (
          <p id="check-base-url-error" className={styles.fieldError}>
            {errors.baseUrl}
          </p>
        ) : (
          <Hint block id="check-base-url-hint">
            The queueBaseUrl a loadCloudQueue carries: context, itemWindow, version and timePlayed are asked under it.
          </Hint>
        )}
      </div>
      <div className={styles.field}>
        <label htmlFor="check-authorization">Authorization</label>
        <SecretInput
          id="check-authorization"
          label="Authorization"
          inputRef={authorizationRef}
          placeholder="Bearer …"
          value={fields.authorization}
          invalid={errors.authorization !== undefined}
          describedBy={errors.authorization ? 'check-authorization-error' : 'check-authorization-hint'}
          onChange={(authorization) => edit({ authorization })}
        />
        {errors.authorization ? (
          <p id="check-authorization-error" className={styles.fieldError}>
            {errors.authorization}
          </p>
        ) : (
          <Hint block id="check-authorization-hint">
            {tokenDropped
              ? `The token of the queue “${tokenDropped}” was taken out: it is for the console’s own server, not this one.`
              : 'Sent as it is on every request; empty for none. Held in memory only, kept runs show it masked.'}
          </Hint>
        )}
      </div>
      <div className={styles.formActions}>
        <button type="submit" className="primary" disabled={start.isPending}>
          {start.isPending ? 'Starting…' : 'Run checks'}
        </button>
        {queue && !expired && <Hint>the queue “{queue.name}”, with its current token</Hint>}
      </div>
      {queue && expired && (
        <p role="alert" className={styles.fieldError}>
          The token of the queue “{queue.name}” {expiryText(queue.accessTokenExpiresAt, now)} (engine time): every call
          of the run would be refused 401.{' '}
          <button type="button" onClick={() => issue.mutate({ id: queue.id })} disabled={issue.isPending}>
            New token
          </button>
          {issue.isError && <> {issue.error.message}</>}
        </p>
      )}
      {start.error && (
        <p role="alert" className={styles.fieldError}>
          The checks did not start: {start.error.message}
        </p>
      )}
      {busy && (
        <p role="alert" className={styles.fieldError}>
          A check of this server is going on: follow or stop it, and run this one once it has ended.{' '}
          <button type="button" onClick={() => onStarted(busy.id)}>
            Show it
          </button>
        </p>
      )}
    </form>
  );
}

/** Whether two base URLs name one server's queue, a trailing slash aside. */
function sameUrl(a: string, b: string): boolean {
  const normal = (url: string) => (URL.canParse(url) ? new URL(url).href.replace(/\/$/, '') : url);
  return normal(a) === normal(b);
}

/** A URL's origin, or the text itself when it is no URL (yet: it is being typed). */
function originOf(url: string): string {
  return URL.canParse(url.trim()) ? new URL(url.trim()).origin : url.trim();
}
