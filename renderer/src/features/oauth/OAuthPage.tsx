/**
 * The OAuth page: the login service's settings, the integration manager with grants and tokens,
 * and the OAuth flow inspector side by side.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { useIntegrations } from '../../queries/oauth';
import { useAreaPlace } from '../../router/area-memory';
import { usePaletteActions } from '../../stores/palette-actions';
import { FlowInspector } from './FlowInspector';
import { FormError } from './fields';
import { IntegrationCard } from './IntegrationCard';
import { NewIntegrationForm } from './NewIntegrationForm';
import type { ShownSecret } from './SecretCallout';
import { SettingsBar } from './SettingsBar';
import styles from './OAuthPage.module.css';

const route = getRouteApi('/oauth');

export function OAuthPage() {
  const { data: integrations, error } = useIntegrations();
  const [creating, setCreating] = useState(false);
  usePaletteActions({ 'oauth.newIntegration': () => setCreating(true) });
  // The integration unfolded is the address (`#/oauth?integration=<id>`; empty: all folded).
  const search = route.useSearch();
  const expanded = search.integration ?? null;
  const flowNamed = Boolean(search.flow);
  const oauth = useAreaPlace('oauth');
  const setExpanded = (integration: string) => oauth.go({ ...oauth.current(), integration });
  // A secret is shown once, beside the integration it belongs to, until dismissed.
  const [secret, setSecret] = useState<{ integrationId: string; secret: ShownSecret } | null>(null);
  const open = expanded ?? integrations?.find((i) => !i.sample)?.id ?? integrations?.[0]?.id ?? null;

  return (
    <section className={styles.oauthPage} aria-labelledby="page-title">
      <header className={`page-header ${styles.oauthHeader}`}>
        <h1 id="page-title">OAuth</h1>
        <SettingsBar />
      </header>
      <div className={styles.oauthColumns} data-flow-named={flowNamed || undefined}>
        <section aria-labelledby="integrations-title">
          <div className={styles.sectionHead}>
            <h2 id="integrations-title">Integrations</h2>
            {!creating && (
              <button type="button" onClick={() => setCreating(true)}>
                New integration
              </button>
            )}
          </div>
          {creating && (
            <NewIntegrationForm
              onCancel={() => setCreating(false)}
              onCreated={(created) => {
                setCreating(false);
                setExpanded(created.id);
                setSecret({
                  integrationId: created.id,
                  secret: {
                    keyName: created.keys[0]?.name ?? 'Default',
                    clientId: created.clientId ?? '',
                    clientSecret: created.clientSecret,
                  },
                });
              }}
            />
          )}
          <FormError error={error} />
          {integrations?.map((integration) => (
            <IntegrationCard
              key={integration.id}
              integration={integration}
              expanded={integration.id === open}
              onToggle={() => setExpanded(integration.id === open ? '' : integration.id)}
              secret={secret?.integrationId === integration.id ? secret.secret : null}
              onSecret={(shown) => setSecret(shown ? { integrationId: integration.id, secret: shown } : null)}
            />
          ))}
        </section>
        <FlowInspector className={styles.inspector} />
      </div>
    </section>
  );
}
