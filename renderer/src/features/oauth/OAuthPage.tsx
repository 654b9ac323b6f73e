/**
 * The OAuth page: the login service's settings, the integration manager with grants and tokens,
 * and the OAuth flow inspector side by side.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { useWidthAtMost } from '../../components/useWidthAtMost';
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

/** The area's width at which its two columns become one (OAuthPage.module.css's container query). */
const ONE_COLUMN_MAX_PX = 1099;

export function OAuthPage() {
  const { data: integrations, error } = useIntegrations();
  const [creating, setCreating] = useState(false);
  usePaletteActions({ 'oauth.newIntegration': () => setCreating(true) });
  // The integration unfolded is the address (`#/oauth?integration=<id>`; empty: all folded).
  const search = route.useSearch();
  const expanded = search.integration ?? null;
  const flowNamed = Boolean(search.flow);
  const pageRef = useRef<HTMLElement>(null);
  const oneColumn = useWidthAtMost(pageRef, ONE_COLUMN_MAX_PX);
  const oauth = useAreaPlace('oauth');
  const setExpanded = (integration: string) => oauth.go({ ...oauth.current(), integration });
  // A secret is shown once, beside the integration it belongs to, until dismissed.
  const [secret, setSecret] = useState<{ integrationId: string; secret: ShownSecret } | null>(null);
  const open = expanded ?? integrations?.find((i) => !i.sample)?.id ?? integrations?.[0]?.id ?? null;

  // One column (the container query of OAuthPage.module.css): a flow the address names (one just
  // started, the guided demo's sign-in, a link) is what the page is about, so its inspector comes
  // first, in the document too (tab order and screen readers), so that its timeline fills in where
  // it is seen. Under the integrations it was below the fold, and their grants and events, growing
  // as the flow went on, pushed it further down (audit-ui W4).
  const inspectorFirst = flowNamed && oneColumn;
  const inspector = <FlowInspector key="inspector" />;
  const integrationsColumn = (
    <section key="integrations" aria-labelledby="integrations-title">
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
  );

  return (
    <section ref={pageRef} className={styles.oauthPage} aria-labelledby="page-title">
      <header className={`page-header ${styles.oauthHeader}`}>
        <h1 id="page-title">OAuth</h1>
        <SettingsBar />
      </header>
      <div className={styles.oauthColumns}>
        {inspectorFirst ? [inspector, integrationsColumn] : [integrationsColumn, inspector]}
      </div>
    </section>
  );
}
