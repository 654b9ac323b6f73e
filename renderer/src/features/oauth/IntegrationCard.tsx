/** One integration: what users see on the consent page, its keys, refresh token rotation and its grace window, and its grants. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { REFRESH_GRACE_MAX_SEC, type IntegrationView } from '@engine-api/oauth-types';
import { Badge } from '../../components/Badge';
import { StatusBadge } from './StatusBadge';
import { useApi } from '../../api/context';
import { oauthKeys } from '../../queries/oauth';
import { ClientKeySection } from './ClientKeySection';
import { ConsentFieldInputs, FormError, type ConsentFields } from './fields';
import { GrantsTable } from './GrantsTable';
import { IntegrationEvents } from './IntegrationEvents';
import { SecretCallout, type ShownSecret } from './SecretCallout';
import styles from './IntegrationCard.module.css';

export function IntegrationCard({
  integration,
  expanded,
  onToggle,
  secret,
  onSecret,
}: {
  integration: IntegrationView;
  expanded: boolean;
  onToggle(): void;
  secret: ShownSecret | null;
  onSecret(secret: ShownSecret | null): void;
}) {
  const api = useApi();
  const [editing, setEditing] = useState(false);
  const remove = useMutation({ mutationFn: () => api.call('integrations.delete', { id: integration.id }) });
  // The switch moves at the click and shows the engine's answer once it arrives.
  const queryClient = useQueryClient();
  const [rotationPending, setRotationPending] = useState<boolean | null>(null);
  const rotation = useMutation({
    mutationFn: (rotateRefreshTokens: boolean) =>
      api.call('integrations.update', { id: integration.id, rotateRefreshTokens }),
    onSuccess: (updated) =>
      queryClient.setQueryData<IntegrationView[]>(oauthKeys.integrations, (list) =>
        list?.map((i) => (i.id === updated.id ? updated : i)),
      ),
    onSettled: () => setRotationPending(null),
  });
  const addKey = useMutation({
    mutationFn: () =>
      api.call('integrations.keys.create', { id: integration.id, name: `Key ${integration.keys.length + 1}` }),
    onSuccess: (issued) =>
      onSecret({ keyName: issued.key.name, clientId: issued.clientId, clientSecret: issued.clientSecret }),
  });
  const headingId = `integration-${integration.id}`;

  return (
    <article className={styles.card} aria-labelledby={headingId} data-expanded={expanded}>
      <header className={styles.integrationHead}>
        <button type="button" className={styles.disclosure} aria-expanded={expanded} onClick={onToggle}>
          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
          <h3 id={headingId}>{integration.name}</h3>
        </button>
        {integration.category && <Badge>{integration.category}</Badge>}
        {integration.sample && !integration.category && <StatusBadge status="sample">sample</StatusBadge>}
        <span className="muted">
          {integration.keys.length} key{integration.keys.length === 1 ? '' : 's'}
        </span>
      </header>
      {secret && <SecretCallout secret={secret} onDone={() => onSecret(null)} />}
      {expanded && (
        <div className={styles.integrationBody}>
          {editing ? (
            <EditForm integration={integration} onDone={() => setEditing(false)} />
          ) : (
            <p className={styles.integrationDescription}>
              {integration.description || (
                <span className="muted">No description (users see it on the consent page).</span>
              )}
            </p>
          )}
          <div className={styles.inlineForm}>
            {!editing && !integration.sample && (
              <button type="button" onClick={() => setEditing(true)}>
                Edit
              </button>
            )}
            <label
              className={styles.switch}
              title="A refresh gives a new refresh token; presenting an old one again revokes the grant"
            >
              <input
                type="checkbox"
                role="switch"
                checked={rotationPending ?? integration.rotateRefreshTokens}
                onChange={(e) => {
                  setRotationPending(e.target.checked);
                  rotation.mutate(e.target.checked);
                }}
              />
              Refresh token rotation
            </label>
            <RefreshGrace integration={integration} />
            {!integration.sample && (
              <>
                <button type="button" onClick={() => addKey.mutate()} disabled={addKey.isPending}>
                  Add key
                </button>
                <button
                  type="button"
                  className="danger"
                  disabled={remove.isPending}
                  onClick={() => {
                    if (window.confirm(`Delete ${integration.name}? Every token issued to it stops working.`))
                      remove.mutate();
                  }}
                >
                  Delete
                </button>
              </>
            )}
          </div>
          <FormError error={remove.error ?? rotation.error ?? addKey.error} />
          {integration.keys.map((key) => (
            <ClientKeySection key={key.id} integration={integration} clientKey={key} onSecret={onSecret} />
          ))}
          <h4>Grants and tokens</h4>
          <GrantsTable integrationId={integration.id} />
          <IntegrationEvents integration={integration} />
        </div>
      )}
    </article>
  );
}

/**
 * How long a refresh token just rotated away still answers (docs/contract/console.md §2): clients
 * that refresh twice at once get the current refresh token instead of a revoked grant. Only
 * rotation makes it matter.
 */
export function RefreshGrace({ integration }: { integration: IntegrationView }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (refreshGraceSec: number) => api.call('integrations.update', { id: integration.id, refreshGraceSec }),
    onSuccess: (updated) => {
      queryClient.setQueryData<IntegrationView[]>(oauthKeys.integrations, (list) =>
        list?.map((i) => (i.id === updated.id ? updated : i)),
      );
      setDraft(null);
    },
  });
  const value = draft ?? String(integration.refreshGraceSec);
  const valid = /^\d{1,4}$/.test(value) && Number(value) <= REFRESH_GRACE_MAX_SEC;
  const changed = valid && Number(value) !== integration.refreshGraceSec;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed) save.mutate(Number(value));
  };
  const title = integration.rotateRefreshTokens
    ? 'A refresh token just rotated away still answers this long (new access token, the current refresh token, nothing revoked); 0: strict, a reuse revokes the grant at once'
    : 'Only matters with refresh token rotation on';
  return (
    <form className={styles.switch} onSubmit={submit} aria-label="Refresh grace window" title={title}>
      <label className={styles.switch}>
        Refresh grace
        <input
          type="number"
          inputMode="numeric"
          min={0}
          max={REFRESH_GRACE_MAX_SEC}
          step={1}
          value={value}
          aria-invalid={!valid}
          aria-describedby={valid ? undefined : `refresh-grace-range-${integration.id}`}
          disabled={!integration.rotateRefreshTokens || save.isPending}
          onChange={(e) => setDraft(e.target.value)}
          style={{ flex: '0 0 auto', minWidth: 0, width: '5.5rem' }}
        />
        s{integration.refreshGraceSec === 0 && draft === null ? ' (strict)' : ''}
      </label>
      {!valid && (
        // Red alone said nothing of what it takes (audit-ui W12), as every other number field says.
        <span id={`refresh-grace-range-${integration.id}`} className="error">
          whole seconds from 0 to {REFRESH_GRACE_MAX_SEC.toLocaleString('en-US')}
        </span>
      )}
      {draft !== null && (
        <>
          <button type="submit" disabled={!changed || save.isPending}>
            Set
          </button>
          <button type="button" onClick={() => setDraft(null)}>
            Cancel
          </button>
        </>
      )}
      {save.error && <FormError error={save.error} />}
    </form>
  );
}

function EditForm({ integration, onDone }: { integration: IntegrationView; onDone(): void }) {
  const api = useApi();
  const [fields, setFields] = useState<ConsentFields>({
    name: integration.name,
    description: integration.description,
    category: integration.category,
  });
  const save = useMutation({
    mutationFn: () => api.call('integrations.update', { id: integration.id, ...fields }),
    onSuccess: onDone,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className={styles.form} onSubmit={submit} aria-label={`Edit ${integration.name}`}>
      <ConsentFieldInputs value={fields} onChange={setFields} />
      <FormError error={save.error} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
