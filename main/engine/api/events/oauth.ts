import type { FlowStepView, FlowSummary } from '../oauth-types.js';

/** Events of the login service and its OAuth flow inspector. */
export interface OAuthEvents {
  /** Integrations, keys, redirect URIs, grants, tokens or settings changed: fetch again. */
  'oauth.changed': { what: 'integrations' | 'grants' | 'settings' };
  /** A step landed on a flow's timeline (the flow as it stands after it). */
  'oauth.flowStep': { flow: FlowSummary; step: FlowStepView };
}
