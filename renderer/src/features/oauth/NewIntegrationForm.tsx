/** Registers an integration (CONTRACT §7 `POST /integrations`): name, description, category, redirect URLs. */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { CreatedIntegration } from '../../../../main/engine/api/oauth-types';
import { useApi } from '../../api/context';

export function NewIntegrationForm({ onCreated, onCancel }: { onCreated(created: CreatedIntegration): void; onCancel(): void }) {
  const api = useApi();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [category, setCategory] = useState('');
  const [redirectUris, setRedirectUris] = useState('');
  const create = useMutation({
    mutationFn: () =>
      api.call('integrations.create', {
        name,
        description,
        category,
        redirectUris: redirectUris.split(/\s+/).filter(Boolean),
      }),
    onSuccess: onCreated,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <form className="card form" onSubmit={submit} aria-label="New integration">
      <h3>New integration</h3>
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} autoFocus />
      </label>
      <label>
        Description
        <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={1000} placeholder="Shown to users on the consent page" />
      </label>
      <label>
        Category
        <input value={category} onChange={(e) => setCategory(e.target.value)} maxLength={100} />
      </label>
      <label>
        Redirect URLs
        <textarea value={redirectUris} onChange={(e) => setRedirectUris(e.target.value)} rows={2} required placeholder="https://app.example.com/oauth/callback (one per line)" />
      </label>
      {create.isError && (
        <p role="alert" className="form-error">
          {create.error.message}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create integration'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
