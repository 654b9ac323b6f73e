/**
 * The command bar: control commands sent through the real control API, exactly as an integration
 * would send them, so a demo needs no other tool: with the console's own access token, or as any
 * integration's grant the console holds a token of ("Send as", `control.senders`). Example
 * requests come filled from the household, this player's group and session, and the first queue
 * (`control.examples`). The answer (status, body, time, whose token it carried) shows beside it,
 * errors included; the request and its answer copy as curl or fetch. What was typed and the last
 * answer are kept per player (useCommandDrafts), so a visit to the traffic log loses neither.
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, type FormEvent } from 'react';
import type { ControlExchange, ControlSender } from '@engine-api/commands/player';
import { curlOf, fetchOf } from '@engine-api/curl';
import type { PlayerDetail } from '@engine-api/player-types';
import { useApi } from '../../api/context';
import { CopyButton } from '../../components/CopyButton';
import { useControlExamples, useControlSenders } from '../../queries/control';
import { useEngineState } from '../../queries/engine-state';
import { useQueueList } from '../../queries/queues';
import { useLoadOffer } from '../../stores/load-offer';
import {
  copyableOf,
  exampleFields,
  NEW_DRAFT,
  CONTROL_COMMAND_FIELD,
  LOAD_QUEUE_FIELD,
  requestOf,
  requestProblem,
  SEEK_COMMANDS,
  useCommandDrafts,
  type Command,
  type Fields,
  type SeekLevel,
} from './command-drafts';
import { queueLabel } from './queue-label';
import styles from './CommandBar.module.css';

export function CommandBar({ detail }: { detail: PlayerDetail }) {
  const api = useApi();
  const { command, fields, as, answer, error, handedOver } =
    useCommandDrafts((s) => s.byPlayer[detail.id]) ?? NEW_DRAFT;
  const patch = useCommandDrafts((s) => s.patch);
  const senders = useControlSenders().data ?? [];
  const examples = useControlExamples(detail.groupId).data ?? [];
  const urls = useEngineState().data?.urls;
  const controlUrl = urls?.control ?? '';
  // A grant whose token the console no longer holds stays picked rather than falling back to the
  // console unseen: the engine's 409 says why (refresh, or trade a new code).
  const sender = senders.find((s) => s.grantId === as);
  const send = useMutation({
    mutationFn: (input: { method: 'GET' | 'POST'; path: string; body?: unknown }) =>
      api.call('control.send', as ? { ...input, as: { grantId: as } } : input),
    onSuccess: (exchange) => patch(detail.id, { answer: exchange, error: null }),
    onError: (failure) => patch(detail.id, { answer: null, error: failure.message }),
  });
  // A queue sent to this player from the Queues area ("Prepare a load on…") becomes its draft, and
  // focus goes where the next press is: Send, or Create session first (then Send, once it is made).
  const offered = useLoadOffer((s) => (s.offered?.playerId === detail.id ? s.offered : null));
  const sendButton = useRef<HTMLButtonElement>(null);
  const sessionButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!offered || !useCommandDrafts.getState().takeOffer(detail.id)) return;
    (detail.sessionId ? sendButton : sessionButton).current?.focus();
  }, [offered, detail.id, detail.sessionId]);
  const hasSession = detail.sessionId !== null;
  const sending = send.isPending;
  useEffect(() => {
    // Both buttons are off while a call runs (focus may have dropped to <body> meanwhile), and the
    // session can show up before its call has answered: move on once Send can take the focus.
    const focus = document.activeElement;
    if (handedOver !== null && hasSession && !sending && (focus === sessionButton.current || focus === document.body))
      sendButton.current?.focus();
  }, [handedOver, hasSession, sending]);
  const set = (change: Partial<Fields>) => patch(detail.id, { fields: { ...fields, ...change } });
  const setCommand = (next: Command) => patch(detail.id, { command: next });
  const pickExample = (id: string) => {
    const example = examples.find((e) => e.id === id);
    if (example) patch(detail.id, { command: 'request', fields: exampleFields(example, fields) });
  };
  const queues = useQueueList().data ?? [];

  const createSession = () =>
    send.mutate({
      method: 'POST',
      path: `/api/v1/groups/${detail.groupId}/playbackSession:1`,
      body: { appId: 'com.cloudqueueconsole.demo', appContext: 'console' },
    });

  // Group-level seeks need no session; every other command goes to the session.
  const request = requestOf(command, fields, detail);
  const seeking = SEEK_COMMANDS.includes(command);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!request) return;
    patch(detail.id, { handedOver: null });
    send.mutate(request);
  };

  return (
    <div className={styles.commandBar}>
      <div className={styles.sessionLine}>
        <span className="muted">Session</span>
        {detail.sessionId ? (
          <code title={detail.sessionId}>{detail.sessionId.slice(0, 20)}…</code>
        ) : (
          <span className="muted">none</span>
        )}
        <button type="button" ref={sessionButton} onClick={createSession} disabled={send.isPending}>
          {detail.sessionId ? 'New session' : 'Create session'}
        </button>
      </div>
      <div className={styles.sessionLine}>
        <label>
          <span className="muted">Send as</span>{' '}
          <select
            aria-label="Send as"
            value={as ?? ''}
            onChange={(e) => patch(detail.id, { as: e.target.value || null })}
          >
            <option value="">the console (its own token)</option>
            {as && !sender && <option value={as}>a grant the console holds no live token of</option>}
            {senders.map((s) => (
              <option key={s.grantId} value={s.grantId}>
                {senderLabel(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span className="muted">Example</span>{' '}
          <select aria-label="Example request" value="" onChange={(e) => pickExample(e.target.value)}>
            <option value="">fill from an example…</option>
            {examples.map((e) => (
              <option key={e.id} value={e.id} title={e.note}>
                {e.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <form onSubmit={submit} aria-label="Control command">
        <label>
          <span>Command</span>
          <select
            id={CONTROL_COMMAND_FIELD}
            aria-label="Control command to send"
            value={command}
            onChange={(e) => setCommand(e.target.value as Command)}
          >
            <option value="loadCloudQueue">loadCloudQueue</option>
            <option value="skipToItem">skipToItem</option>
            <option value="refreshCloudQueue">refreshCloudQueue</option>
            <option value="suspend">suspend</option>
            <option value="seek">seek</option>
            <option value="seekRelative">seekRelative</option>
            <option value="request">any request…</option>
          </select>
        </label>
        {command === 'request' && (
          <>
            <label>
              <span>Method</span>
              <select
                aria-label="Method"
                value={fields.method}
                onChange={(e) => set({ method: e.target.value as Fields['method'] })}
              >
                <option value="GET">GET</option>
                <option value="POST">POST</option>
              </select>
            </label>
            <label className={styles.wideField}>
              <span>Path</span>
              <input
                value={fields.path}
                onChange={(e) => set({ path: e.target.value })}
                placeholder="/api/v1/households"
                required
              />
            </label>
            <label className={styles.wideField}>
              <span>JSON body</span>
              <textarea
                value={fields.body}
                onChange={(e) => set({ body: e.target.value })}
                rows={Math.min(8, Math.max(2, fields.body.split('\n').length))}
                spellCheck={false}
                placeholder="none"
              />
            </label>
          </>
        )}
        {seeking && (
          <label>
            <span>Sent to</span>
            <select
              aria-label="Seek level"
              value={fields.seekLevel}
              onChange={(e) => set({ seekLevel: e.target.value as SeekLevel })}
            >
              <option value="group">the group (playback:1)</option>
              <option value="session">the session (playbackSession:1)</option>
            </select>
          </label>
        )}
        {seeking && (
          <>
            {command === 'seek' ? (
              <label>
                <span>positionMillis</span>
                <input
                  value={fields.positionMillis}
                  onChange={(e) => set({ positionMillis: e.target.value })}
                  inputMode="numeric"
                  pattern="\d*"
                  required
                />
              </label>
            ) : (
              <label>
                <span>deltaMillis</span>
                <input
                  value={fields.deltaMillis}
                  onChange={(e) => set({ deltaMillis: e.target.value })}
                  inputMode="numeric"
                  pattern="-?\d*"
                  placeholder="-10000"
                  required
                />
              </label>
            )}
            <label>
              <span>itemId</span>
              <input
                value={fields.itemId}
                onChange={(e) => set({ itemId: e.target.value })}
                placeholder={detail.itemId ?? 'optional'}
                title="Optional: refused unless it is the playing item"
              />
            </label>
          </>
        )}
        {command === 'loadCloudQueue' && (
          <>
            <label>
              <span>Console queue</span>
              <select
                id={LOAD_QUEUE_FIELD}
                aria-label="Console queue"
                value={queues.find((q) => q.queueBaseUrl === fields.queueBaseUrl)?.id ?? ''}
                onChange={(e) => {
                  const queue = queues.find((q) => q.id === e.target.value);
                  if (queue) set({ queueBaseUrl: queue.queueBaseUrl, httpAuthorization: queue.httpAuthorization });
                }}
              >
                <option value="">{queues.length ? 'pick one, or type a URL' : 'no queues yet'}</option>
                {queues.map((q) => (
                  <option key={q.id} value={q.id}>
                    {queueLabel(q, queues)}
                  </option>
                ))}
              </select>
            </label>
            <label className={styles.wideField}>
              <span>queueBaseUrl</span>
              <input
                value={fields.queueBaseUrl}
                onChange={(e) => set({ queueBaseUrl: e.target.value })}
                // This console's own server, as people copy placeholders (the default port's was not it).
                placeholder={`${urls?.cloudQueue ?? 'http://127.0.0.1:47103'}/queues/…/v2.3/`}
                required
              />
            </label>
            <label className={styles.wideField}>
              <span>httpAuthorization</span>
              <input
                value={fields.httpAuthorization}
                onChange={(e) => set({ httpAuthorization: e.target.value })}
                placeholder="Bearer …"
              />
            </label>
          </>
        )}
        {(command === 'loadCloudQueue' || command === 'skipToItem') && (
          <>
            <label>
              <span>itemId</span>
              <input
                value={fields.itemId}
                onChange={(e) => set({ itemId: e.target.value })}
                required={command === 'skipToItem'}
              />
            </label>
            <label>
              <span>positionMillis</span>
              <input
                value={fields.positionMillis}
                onChange={(e) => set({ positionMillis: e.target.value })}
                inputMode="numeric"
                pattern="\d*"
              />
            </label>
            <label className={styles.checkField}>
              <input
                type="checkbox"
                checked={fields.playOnCompletion}
                onChange={(e) => set({ playOnCompletion: e.target.checked })}
              />
              <span>playOnCompletion</span>
            </label>
          </>
        )}
        <button
          type="submit"
          ref={sendButton}
          className="primary"
          disabled={!request || send.isPending}
          title={
            request
              ? undefined
              : command === 'request'
                ? (requestProblem(fields) ?? undefined)
                : 'Create a session first'
          }
        >
          {send.isPending ? 'Sending…' : 'Send'}
        </button>
        {request && controlUrl && (
          <CopyAs request={copyableOf(controlUrl, request, sender?.tokenHint ?? CONSOLE_TOKEN)} what="the command" />
        )}
      </form>
      {command === 'request' && fields.path !== '' && !request && (
        <p className="muted" role="status">
          {requestProblem(fields)}
        </p>
      )}
      {handedOver !== null && (
        <p className="muted" role="status">
          loadCloudQueue of “{handedOver}” filled in from the Queues area
          {detail.sessionId ? ': Send loads it.' : ': Create session, then Send.'}
        </p>
      )}
      <ControlAnswer
        exchange={answer ?? undefined}
        error={error}
        tokenHint={
          (answer?.sentAs.kind === 'grant'
            ? senders.find((s) => s.grantId === (answer.sentAs as { grantId: string }).grantId)?.tokenHint
            : undefined) ?? CONSOLE_TOKEN
        }
      />
    </div>
  );
}

/** What stands for the console's own token in a copied call: the console does not hand it out. */
const CONSOLE_TOKEN = 'CONSOLE_TOKEN';

function senderLabel(sender: ControlSender): string {
  return `${sender.integrationName} (${sender.username}, token ${sender.tokenHint}…)`;
}

function CopyAs({ request, what }: { request: Parameters<typeof curlOf>[0]; what: string }) {
  return (
    <span title="The access token is masked: put yours in">
      <CopyButton value={curlOf(request)} label={`Copy ${what} as curl`} />
      <CopyButton value={fetchOf(request)} label={`Copy ${what} as fetch`} />
    </span>
  );
}

function ControlAnswer({
  exchange,
  error,
  tokenHint,
}: {
  exchange: ControlExchange | undefined;
  error: string | null;
  tokenHint: string;
}) {
  if (error)
    return (
      <p className={styles.answer} data-outcome="bad" role="alert">
        {error}
      </p>
    );
  if (!exchange) return null;
  const ok = exchange.status < 400;
  return (
    <div className={styles.answer} data-outcome={ok ? 'ok' : 'bad'} role="status" aria-label="Control API answer">
      <code>
        {exchange.method} {new URL(exchange.url).pathname}
      </code>
      <strong data-status={exchange.status}>{exchange.status}</strong>
      <code className={styles.answerBody}>
        {typeof exchange.body === 'string' ? exchange.body : JSON.stringify(exchange.body)}
      </code>
      <span className="muted">{exchange.durationMs} ms</span>
      <span className="muted" data-testid="sent-as">
        sent as {exchange.sentAs.kind === 'grant' ? exchange.sentAs.integrationName : 'the console'}
      </span>
      <CopyAs
        request={{
          ...copyableOf('', { method: exchange.method, path: '', body: exchange.requestBody ?? undefined }, tokenHint),
          url: exchange.url,
        }}
        what="this call"
      />
      <CopyButton
        value={typeof exchange.body === 'string' ? exchange.body : JSON.stringify(exchange.body, null, 2)}
        label="Copy the answer"
      />
    </div>
  );
}
