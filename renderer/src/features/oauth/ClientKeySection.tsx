/**
 * One client credential key: its client id, the hint of its secret (regenerate to see a new one),
 * its redirect URLs with the loopback flag, and "Start OAuth flow" with one of them.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ClientKeyView, IntegrationView } from '@engine-api/oauth-types';
import { useApi } from '../../api/context';
import { CopyButton } from '../../components/CopyButton';
import { FormError } from './fields';
import type { ShownSecret } from './SecretCallout';
import { StartedNotice } from './StartedNotice';
import { useStartFlow } from './useStartFlow';
import styles from './ClientKeySection.module.css';

export function ClientKeySection({
  integration,
  clientKey,
  onSecret,
}: {
  integration: IntegrationView;
  clientKey: ClientKeyView;
  onSecret(secret: ShownSecret): void;
}) {
  const api = useApi();
  const [newUri, setNewUri] = useState('');
  const [flowUri, setFlowUri] = useState(clientKey.redirectUris[0]?.uri ?? '');
  const [pkce, setPkce] = useState(true);
  const ids = { id: integration.id, keyId: clientKey.id };
  const regenerate = useMutation({
    mutationFn: () => api.call('integrations.keys.regenerateSecret', ids),
    onSuccess: (issued) =>
      onSecret({ keyName: issued.key.name, clientId: issued.clientId, clientSecret: issued.clientSecret }),
  });
  const addUri = useMutation({
    mutationFn: (uri: string) => api.call('integrations.redirectUris.add', { ...ids, uri }),
    onSuccess: () => setNewUri(''),
  });
  const removeUri = useMutation({
    mutationFn: (redirectUriId: string) => api.call('integrations.redirectUris.remove', { ...ids, redirectUriId }),
  });
  const start = useStartFlow();
  const chosen = clientKey.redirectUris.some((r) => r.uri === flowUri)
    ? flowUri
    : (clientKey.redirectUris[0]?.uri ?? '');

  const submitUri = (event: FormEvent) => {
    event.preventDefault();
    addUri.mutate(newUri.trim());
  };

  return (
    <section className={styles.clientKey} aria-label={`Key ${clientKey.name}`}>
      <div className={styles.keyHead}>
        <h4>Key “{clientKey.name}”</h4>
        <span className={styles.kv}>
          <span className="muted">client_id</span> <code>{clientKey.clientId}</code>
          <CopyButton value={clientKey.clientId} label={`Copy client id of ${clientKey.name}`} />
        </span>
        <span className={styles.kv}>
          <span className="muted">secret</span>{' '}
          <code title="Stored hashed; only its first characters are kept to tell secrets apart">
            {clientKey.secretHint}…
          </code>
          {/* Its secret lives only in memory, so each start gives it another: said, since a hint that changes looks like a fault. */}
          {integration.sample && <span className="muted">new with each start of the console</span>}
          <button
            type="button"
            onClick={() => regenerate.mutate()}
            disabled={regenerate.isPending || integration.sample}
            title={
              integration.sample
                ? 'The sample integration keeps its secret in memory'
                : 'The old secret stops working at once'
            }
          >
            Regenerate secret
          </button>
        </span>
      </div>

      <ul className={styles.redirectUris} aria-label={`Redirect URLs of ${clientKey.name}`}>
        {clientKey.redirectUris.map((r) => (
          <li key={r.id}>
            <code>{r.uri}</code>
            {r.warning && (
              <span className={styles.flag} title="Loopback URLs are accepted here for local testing only">
                {r.warning}
              </span>
            )}
            {!integration.sample && (
              <button
                type="button"
                className="icon-button"
                aria-label={`Remove redirect URL ${r.uri}`}
                onClick={() => removeUri.mutate(r.id)}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {!integration.sample && (
        <form className={styles.inlineForm} onSubmit={submitUri}>
          <input
            aria-label={`New redirect URL for ${clientKey.name}`}
            placeholder="https://app.example.com/oauth/callback"
            value={newUri}
            onChange={(e) => setNewUri(e.target.value)}
          />
          <button type="submit" disabled={!newUri.trim() || addUri.isPending}>
            Add redirect URL
          </button>
        </form>
      )}
      <FormError error={addUri.error} />

      <div className={styles.inlineForm}>
        {clientKey.redirectUris.length > 1 && (
          <select aria-label="Redirect URL for the flow" value={chosen} onChange={(e) => setFlowUri(e.target.value)}>
            {clientKey.redirectUris.map((r) => (
              <option key={r.id}>{r.uri}</option>
            ))}
          </select>
        )}
        {!integration.sample && (
          <label className={styles.switch}>
            <input type="checkbox" checked={pkce} onChange={(e) => setPkce(e.target.checked)} /> PKCE
          </label>
        )}
        <button
          type="button"
          disabled={!chosen || start.isPending}
          onClick={() =>
            start.mutate(
              integration.sample
                ? { kind: 'sample' }
                : {
                    kind: 'integration',
                    integrationId: integration.id,
                    keyId: clientKey.id,
                    redirectUri: chosen,
                    pkce,
                  },
            )
          }
        >
          Start OAuth flow
        </button>
      </div>
      <FormError error={regenerate.error ?? start.error ?? removeUri.error} />
      {start.data && <StartedNotice started={start.data} />}
    </section>
  );
}
