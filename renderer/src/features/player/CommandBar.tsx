/**
 * The command bar: control commands sent through the real control API with the console's own
 * access token, exactly as an integration would send them, so a demo needs no other tool.
 * The answer (status, body, time) shows beside it, errors included. What was typed and the last
 * answer are kept per player (useCommandDrafts), so a visit to the traffic log loses neither.
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, type FormEvent } from 'react';
import type { ControlExchange } from '@engine-api/commands/player';
import type { PlayerDetail } from '@engine-api/player-types';
import { useApi } from '../../api/context';
import { useQueueList } from '../../queries/queues';
import { useLoadOffer } from '../../stores/load-offer';
import { NEW_DRAFT, requestOf, SEEK_COMMANDS, useCommandDrafts, type Command, type Fields, type SeekLevel } from './command-drafts';
import { queueLabel } from './queue-label';

export function CommandBar({ detail }: { detail: PlayerDetail }) {
  const api = useApi();
  const { command, fields, answer, error, handedOver } = useCommandDrafts((s) => s.byPlayer[detail.id]) ?? NEW_DRAFT;
  const patch = useCommandDrafts((s) => s.patch);
  const send = useMutation({
    mutationFn: (input: { method: 'GET' | 'POST'; path: string; body?: unknown }) => api.call('control.send', input),
    onSuccess: (exchange) => patch(detail.id, { answer: exchange, error: null }),
    onError: (failure) => patch(detail.id, { answer: null, error: failure.message }),
  });
  // A queue sent to this player from the Queues area ("Load on a player…") becomes its draft, and
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
    if (handedOver !== null && hasSession && !sending && (focus === sessionButton.current || focus === document.body)) sendButton.current?.focus();
  }, [handedOver, hasSession, sending]);
  const set = (change: Partial<Fields>) => patch(detail.id, { fields: { ...fields, ...change } });
  const setCommand = (next: Command) => patch(detail.id, { command: next });
  const queues = useQueueList().data ?? [];

  const createSession = () =>
    send.mutate({ method: 'POST', path: `/api/v1/groups/${detail.groupId}/playbackSession:1`, body: { appId: 'com.cloudqueueconsole.demo', appContext: 'console' } });

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
    <div className="command-bar">
      <div className="session-line">
        <span className="muted">Session</span>
        {detail.sessionId ? <code title={detail.sessionId}>{detail.sessionId.slice(0, 20)}…</code> : <span className="muted">none</span>}
        <button type="button" ref={sessionButton} onClick={createSession} disabled={send.isPending}>
          {detail.sessionId ? 'New session' : 'Create session'}
        </button>
      </div>
      <form onSubmit={submit} aria-label="Control command">
        <label>
          <span>Command</span>
          <select aria-label="Control command to send" value={command} onChange={(e) => setCommand(e.target.value as Command)}>
            <option value="loadCloudQueue">loadCloudQueue</option>
            <option value="skipToItem">skipToItem</option>
            <option value="refreshCloudQueue">refreshCloudQueue</option>
            <option value="suspend">suspend</option>
            <option value="seek">seek</option>
            <option value="seekRelative">seekRelative</option>
          </select>
        </label>
        {seeking && (
          <label>
            <span>Sent to</span>
            <select aria-label="Seek level" value={fields.seekLevel} onChange={(e) => set({ seekLevel: e.target.value as SeekLevel })}>
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
                <input value={fields.positionMillis} onChange={(e) => set({ positionMillis: e.target.value })} inputMode="numeric" pattern="\d*" required />
              </label>
            ) : (
              <label>
                <span>deltaMillis</span>
                <input value={fields.deltaMillis} onChange={(e) => set({ deltaMillis: e.target.value })} inputMode="numeric" pattern="-?\d*" placeholder="-10000" required />
              </label>
            )}
            <label>
              <span>itemId</span>
              <input value={fields.itemId} onChange={(e) => set({ itemId: e.target.value })} placeholder={detail.itemId ?? 'optional'} title="Optional: refused unless it is the playing item" />
            </label>
          </>
        )}
        {command === 'loadCloudQueue' && (
          <>
            <label>
              <span>Console queue</span>
              <select
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
            <label className="wide">
              <span>queueBaseUrl</span>
              <input value={fields.queueBaseUrl} onChange={(e) => set({ queueBaseUrl: e.target.value })} placeholder="http://127.0.0.1:47103/queues/…/v2.3/" required />
            </label>
            <label className="wide">
              <span>httpAuthorization</span>
              <input value={fields.httpAuthorization} onChange={(e) => set({ httpAuthorization: e.target.value })} placeholder="Bearer …" />
            </label>
          </>
        )}
        {(command === 'loadCloudQueue' || command === 'skipToItem') && (
          <>
            <label>
              <span>itemId</span>
              <input value={fields.itemId} onChange={(e) => set({ itemId: e.target.value })} required={command === 'skipToItem'} />
            </label>
            <label>
              <span>positionMillis</span>
              <input value={fields.positionMillis} onChange={(e) => set({ positionMillis: e.target.value })} inputMode="numeric" pattern="\d*" />
            </label>
            <label className="check">
              <input type="checkbox" checked={fields.playOnCompletion} onChange={(e) => set({ playOnCompletion: e.target.checked })} />
              <span>playOnCompletion</span>
            </label>
          </>
        )}
        <button type="submit" ref={sendButton} className="primary" disabled={!request || send.isPending} title={request ? undefined : 'Create a session first'}>
          {send.isPending ? 'Sending…' : 'Send'}
        </button>
      </form>
      {handedOver !== null && (
        <p className="muted" role="status">
          loadCloudQueue of “{handedOver}” filled in from the Queues area{detail.sessionId ? ': Send loads it.' : ': Create session, then Send.'}
        </p>
      )}
      <ControlAnswer exchange={answer ?? undefined} error={error} />
    </div>
  );
}

function ControlAnswer({ exchange, error }: { exchange: ControlExchange | undefined; error: string | null }) {
  if (error) return <p className="answer bad" role="alert">{error}</p>;
  if (!exchange) return null;
  const ok = exchange.status < 400;
  return (
    <div className={ok ? 'answer ok' : 'answer bad'} role="status" aria-label="Control API answer">
      <code>
        {exchange.method} {new URL(exchange.url).pathname}
      </code>
      <strong data-status={exchange.status}>{exchange.status}</strong>
      <code className="answer-body">{typeof exchange.body === 'string' ? exchange.body : JSON.stringify(exchange.body)}</code>
      <span className="muted">{exchange.durationMs} ms</span>
    </div>
  );
}
