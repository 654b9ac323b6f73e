/**
 * An integration's events (docs/events.md): each key's event callback URL, what the integration
 * subscribes to, and its newest delivery tries with their status and retry number, failures
 * first. The engine pushes `eventDelivery.changed`; the lists are read again at most a few times
 * a second, however fast events go out.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import type { EventDeliveryView, EventSubscriptionView } from '@engine-api/events/deliveries';
import type { ClientKeyView, IntegrationView } from '@engine-api/oauth-types';
import { StatusBadge } from './StatusBadge';
import { DataTable } from '../../components/DataTable';
import { useApi } from '../../api/context';
import { formatEngineMoment } from '../../format/engine-time';
import { oauthKeys } from '../../queries/oauth';
import { readAgain } from '../../queries/read-again';
import { useEngineDay } from '../../stores/clock';
import { FormError } from './fields';
import styles from './IntegrationEvents.module.css';

const eventKeys = {
  subscriptions: (integrationId: string) => ['events', 'subscriptions', integrationId] as const,
  deliveries: (integrationId: string) => ['events', 'deliveries', integrationId] as const,
};
/** Tries listed; the engine keeps 200 per integration, the traffic log all of them. */
const SHOWN_TRIES = 50;
const SHOWN_FAILURES = 10;
const REFRESH_MS = 300;
const RETRIES = 3;

export function IntegrationEvents({ integration }: { integration: IntegrationView }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const subscriptions = useQuery({
    queryKey: eventKeys.subscriptions(integration.id),
    queryFn: () => api.call('events.subscriptions', { id: integration.id }),
  });
  const deliveries = useQuery({
    queryKey: eventKeys.deliveries(integration.id),
    queryFn: () => api.call('events.deliveries', { id: integration.id, limit: SHOWN_TRIES }),
  });

  useEffect(() => {
    let timer: number | null = null;
    const off = api.on('eventDelivery.changed', ({ integrationId }) => {
      if (integrationId !== integration.id || timer !== null) return;
      timer = window.setTimeout(() => {
        timer = null;
        void readAgain(queryClient, { queryKey: eventKeys.subscriptions(integration.id) });
        void readAgain(queryClient, { queryKey: eventKeys.deliveries(integration.id) });
      }, REFRESH_MS);
    });
    return () => {
      off();
      if (timer !== null) window.clearTimeout(timer);
    };
  }, [api, queryClient, integration.id]);

  return (
    <section className={styles.integrationEvents} aria-label={`Events of ${integration.name}`}>
      <h4>Events</h4>
      {integration.keys.map((key) => (
        <CallbackUrlForm key={key.id} integration={integration} clientKey={key} />
      ))}
      <FormError error={subscriptions.error ?? deliveries.error} />
      <SubscriptionList subscriptions={subscriptions.data} keys={integration.keys.length} />
      <DeliveryList
        deliveries={deliveries.data}
        sentBefore={subscriptions.data?.some((s) => s.lastSeqId > 0) ?? false}
      />
    </section>
  );
}

function CallbackUrlForm({ integration, clientKey }: { integration: IntegrationView; clientKey: ClientKeyView }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const saved = clientKey.eventCallbackUrl ?? '';
  // What the user typed, until it is saved: the engine's value shows otherwise, and a failed save keeps the draft.
  const [draft, setDraft] = useState<string | null>(null);
  const value = draft ?? saved;
  const dirty = draft !== null && draft !== saved;
  const save = useMutation({
    mutationFn: (eventCallbackUrl: string | null) =>
      api.call('integrations.keys.update', { id: integration.id, keyId: clientKey.id, eventCallbackUrl }),
    onSuccess: (key) => {
      setDraft(null);
      queryClient.setQueryData<IntegrationView[]>(oauthKeys.integrations, (list) =>
        list?.map((i) =>
          i.id === integration.id ? { ...i, keys: i.keys.map((k) => (k.id === key.id ? key : k)) } : i,
        ),
      );
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(value.trim());
  };
  const label = `Event callback URL of ${clientKey.name}`;
  if (integration.sample) {
    return (
      <p className={styles.eventCallback}>
        <span className="muted">Key “{clientKey.name}” events go to</span> <code>{saved || '(none yet)'}</code>{' '}
        <span className="muted">(the sample’s own receiver)</span>
      </p>
    );
  }
  return (
    <>
      <form className={`${styles.inlineForm} ${styles.eventCallback}`} onSubmit={submit} aria-label={label}>
        <label htmlFor={`callback-${clientKey.id}`} className="muted">
          Key “{clientKey.name}” events to
        </label>
        <input
          id={`callback-${clientKey.id}`}
          aria-label={label}
          aria-invalid={save.isError || undefined}
          placeholder="https://app.example.com/sonos/events"
          value={value}
          onChange={(e) => {
            setDraft(e.target.value);
            if (save.isError) save.reset();
          }}
        />
        <button type="submit" disabled={save.isPending || !dirty || value.trim() === ''}>
          Save
        </button>
        {saved && (
          <button
            type="button"
            disabled={save.isPending}
            onClick={() => save.mutate(null)}
            title="Events stop; subscribing is refused until a URL is set again"
          >
            Remove
          </button>
        )}
      </form>
      {clientKey.eventCallbackWarning && !dirty && (
        <p className="muted" role="note">
          {clientKey.eventCallbackWarning}
        </p>
      )}
      <FormError error={save.error} />
    </>
  );
}

function SubscriptionList({
  subscriptions,
  keys,
}: {
  subscriptions: EventSubscriptionView[] | undefined;
  keys: number;
}) {
  if (!subscriptions) return <p className="muted">Loading subscriptions…</p>;
  if (subscriptions.length === 0)
    return (
      <p className="muted">
        No subscriptions: the integration subscribes with its token at the control API (POST …/subscription).
      </p>
    );
  return (
    <DataTable aria-label="Subscriptions">
      <thead>
        <tr>
          <th scope="col">Namespace</th>
          <th scope="col">Target</th>
          {keys > 1 && <th scope="col">Key</th>}
          <th scope="col" title="Sequence id of the newest event">
            Seq
          </th>
          <th scope="col" title="Waiting to be delivered, the one being tried included">
            Waiting
          </th>
          <th scope="col" title="Left out because too many were waiting">
            Dropped
          </th>
        </tr>
      </thead>
      <tbody>
        {subscriptions.map((s) => (
          <tr key={s.id}>
            <td>{s.namespace}</td>
            <td>
              <span className="muted">{s.targetType}</span> <code>{s.targetValue}</code>
            </td>
            {keys > 1 && <td>{s.keyName}</td>}
            <td>{s.lastSeqId || '—'}</td>
            <td>{s.queued}</td>
            <td>{s.dropped}</td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

/**
 * `sentBefore`: a subscription has made events, though no try is listed: the tries are kept in
 * memory, so after a restart the list starts empty beside a sequence id that says otherwise.
 */
export function DeliveryList({
  deliveries,
  sentBefore = false,
}: {
  deliveries: EventDeliveryView[] | undefined;
  sentBefore?: boolean;
}) {
  const today = useEngineDay();
  if (!deliveries) return <p className="muted">Loading deliveries…</p>;
  if (deliveries.length === 0)
    return sentBefore ? (
      <p className="muted">
        No tries since the console started: this list is kept in memory. Earlier tries are in the Traffic area (target
        events).
      </p>
    ) : (
      <p className="muted">No deliveries yet: events go out when something subscribed changes.</p>
    );
  const failures = deliveries.filter((d) => d.outcome === 'failed' || d.outcome === 'dropped').slice(0, SHOWN_FAILURES);
  return (
    <>
      <h4>Failures</h4>
      {failures.length === 0 ? (
        <p className="muted">No event was given up or dropped.</p>
      ) : (
        <ul className={styles.eventFailures} aria-label="Failures">
          {failures.map((d) => (
            <li key={d.id}>
              {formatEngineMoment(d.at, today)} · {d.namespace} #{d.seqId} · {d.message}
            </li>
          ))}
        </ul>
      )}
      <h4>Last deliveries</h4>
      <DataTable aria-label="Last deliveries">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Event</th>
            <th scope="col">Try</th>
            <th scope="col">Status</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id} title={d.message ?? undefined}>
              <td>{formatEngineMoment(d.at, today)}</td>
              <td>
                {d.namespace} <span className="muted">#{d.seqId}</span>
              </td>
              <td>{d.retry === 0 ? 'first' : `retry ${d.retry} of ${RETRIES}`}</td>
              <td>
                {d.status ?? '—'}
                {d.fault && <span className="muted"> (injected)</span>}
              </td>
              <td>
                <StatusBadge status={d.outcome}>{d.outcome}</StatusBadge>
                {d.outcome === 'retrying' && d.nextTryAt !== null && (
                  <span className="muted"> next at {formatEngineMoment(d.nextTryAt, today)}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </DataTable>
    </>
  );
}
