/** One integration: what users see on the consent page, its keys, refresh token rotation, and its grants. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { IntegrationView } from '../../../../main/engine/api/oauth-types';
import { useApi } from '../../api/context';
import { oauthKeys } from '../../queries/oauth';
import { ClientKeySection } from './ClientKeySection';
import { GrantsTable } from './GrantsTable';
import { SecretCallout, type ShownSecret } from './SecretCallout';

export function IntegrationCard({ integration, expanded, onToggle, secret, onSecret }: {
  integration: IntegrationView;
  expanded: boolean;
  onToggle(): void;
  secret: ShownSecret | null;
  onSecret(secret: ShownSecret | null): void;
}) {
  const api = useApi();
  const [editing, setEditing] = useState(false);
  const remove = useMutation({ mutationFn: () => api.call('integrations.delete', { id: integration.id }) });
  const queryClient = useQueryClient();
  // Optimistic, like every switch: it moves at the click and moves back if the engine refuses.
  const rotation = useMutation({
    mutationFn: (rotateRefreshTokens: boolean) => api.call('integrations.update', { id: integration.id, rotateRefreshTokens }),
    onMutate: (rotateRefreshTokens) => {
      const before = queryClient.getQueryData<IntegrationView[]>(oauthKeys.integrations);
      queryClient.setQueryData<IntegrationView[]>(oauthKeys.integrations, (list) => list?.map((i) => (i.id === integration.id ? { ...i, rotateRefreshTokens } : i)));
      return before;
    },
    onError: (_error, _value, before) => queryClient.setQueryData(oauthKeys.integrations, before),
  });
  const addKey = useMutation({
    mutationFn: () => api.call('integrations.keys.create', { id: integration.id, name: `Key ${integration.keys.length + 1}` }),
    onSuccess: (issued) => onSecret({ keyName: issued.key.name, clientId: issued.clientId, clientSecret: issued.clientSecret }),
  });
  const headingId = `integration-${integration.id}`;

  return (
    <article className="card integration" aria-labelledby={headingId} data-expanded={expanded}>
      <header className="integration-head">
        <button type="button" className="disclosure" aria-expanded={expanded} onClick={onToggle}>
          <span aria-hidden="true">{expanded ? '▾' : '▸'}</span>
          <h3 id={headingId}>{integration.name}</h3>
        </button>
        {integration.category && <span className="badge">{integration.category}</span>}
        {integration.sample && !integration.category && <span className="badge" data-status="sample">sample</span>}
        <span className="muted">
          {integration.keys.length} key{integration.keys.length === 1 ? '' : 's'}
        </span>
      </header>
      {secret && <SecretCallout secret={secret} onDone={() => onSecret(null)} />}
      {expanded && (
        <div className="integration-body">
          {editing ? (
            <EditForm integration={integration} onDone={() => setEditing(false)} />
          ) : (
            <p className="integration-description">
              {integration.description || <span className="muted">No description (users see it on the consent page).</span>}
            </p>
          )}
          <div className="inline-form">
            {!editing && !integration.sample && (
              <button type="button" onClick={() => setEditing(true)}>
                Edit
              </button>
            )}
            <label className="switch" title="A refresh gives a new refresh token; presenting an old one again revokes the grant">
              <input type="checkbox" role="switch" checked={integration.rotateRefreshTokens} onChange={(e) => rotation.mutate(e.target.checked)} />
              Refresh token rotation
            </label>
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
                    if (window.confirm(`Delete ${integration.name}? Every token issued to it stops working.`)) remove.mutate();
                  }}
                >
                  Delete
                </button>
              </>
            )}
          </div>
          {(remove.isError || rotation.isError || addKey.isError) && (
            <p role="alert" className="form-error">
              {(remove.error ?? rotation.error ?? addKey.error)?.message}
            </p>
          )}
          {integration.keys.map((key) => (
            <ClientKeySection key={key.id} integration={integration} clientKey={key} onSecret={onSecret} />
          ))}
          <h4>Grants and tokens</h4>
          <GrantsTable integrationId={integration.id} />
        </div>
      )}
    </article>
  );
}

function EditForm({ integration, onDone }: { integration: IntegrationView; onDone(): void }) {
  const api = useApi();
  const [name, setName] = useState(integration.name);
  const [description, setDescription] = useState(integration.description);
  const [category, setCategory] = useState(integration.category);
  const save = useMutation({ mutationFn: () => api.call('integrations.update', { id: integration.id, name, description, category }), onSuccess: onDone });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="form" onSubmit={submit} aria-label={`Edit ${integration.name}`}>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
      </label>
      <label>
        Description
        <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={1000} />
      </label>
      <label>
        Category
        <input value={category} onChange={(e) => setCategory(e.target.value)} maxLength={100} />
      </label>
      {save.isError && (
        <p role="alert" className="form-error">
          {save.error.message}
        </p>
      )}
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
