/** Registers an integration (docs/contract/console.md §7 `POST /integrations`): name, description, category, redirect URLs. */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { CreatedIntegration } from '@engine-api/oauth-types';
import { useApi } from '../../api/context';
import { ConsentFieldInputs, FormError, type ConsentFields } from './fields';
import styles from './NewIntegrationForm.module.css';

export function NewIntegrationForm({
  onCreated,
  onCancel,
}: {
  onCreated(created: CreatedIntegration): void;
  onCancel(): void;
}) {
  const api = useApi();
  const [fields, setFields] = useState<ConsentFields>({ name: '', description: '', category: '' });
  const [redirectUris, setRedirectUris] = useState('');
  const create = useMutation({
    // One per line, as the field says: a line with a space in it is one URL the engine refuses whole.
    mutationFn: () =>
      api.call('integrations.create', {
        ...fields,
        redirectUris: redirectUris
          .split('\n')
          .map((line) => line.trim())
          .filter(Boolean),
      }),
    onSuccess: onCreated,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <form className={`${styles.card} ${styles.form}`} onSubmit={submit} aria-label="New integration">
      <h3>New integration</h3>
      <ConsentFieldInputs value={fields} onChange={setFields} autoFocus />
      <label>
        Redirect URLs
        <textarea
          value={redirectUris}
          onChange={(e) => setRedirectUris(e.target.value)}
          rows={2}
          required
          placeholder="https://app.example.com/oauth/callback (one per line)"
        />
      </label>
      <FormError error={create.error} />
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
