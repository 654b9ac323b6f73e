/**
 * Who the command bar sends a control call as: the console's own token
 * (`console-token.ts`), or the current access token of an integration's grant that the console
 * saw issued in this run (`grants/held-tokens.ts`): the sample's flows, the flows it started,
 * and any code an app traded at its token endpoint since it started. A grant it holds no live
 * token of is refused with what to do about it, never sent with another token instead.
 */
import { EngineError } from '../../api/errors.js';
import type { ControlSender, ControlSenderRef } from '../../api/commands/player.js';
import type { Store } from '../../store/store.js';
import type { Issuer } from '../grants/issuer.js';
import { hintOf } from '../secrets.js';
import type { ConsoleToken } from './console-token.js';

export interface SenderToken {
  token: string;
  sentAs: ControlSenderRef;
}

export interface ControlSendersDeps {
  issuer: Issuer;
  consoleToken: Pick<ConsoleToken, 'get'>;
  store: Pick<Store, 'oauthFlows' | 'integrations'>;
}

export class ControlSenders {
  constructor(private readonly deps: ControlSendersDeps) {}

  /** Grants with a live access token held, newest first; the console's own grant is "the console". */
  list(): ControlSender[] {
    const senders: ControlSender[] = [];
    for (const held of this.deps.issuer.held.all()) {
      const found = this.deps.issuer.lookupAccess(held.accessToken);
      if (!found?.live) continue;
      const grant = this.deps.issuer.grantView(held.grantId);
      if (!grant || this.isConsoles(grant.flowId)) continue;
      senders.push({
        grantId: grant.id,
        integrationId: grant.integrationId,
        integrationName: this.integrationName(grant.integrationId),
        clientId: grant.clientId,
        username: grant.username,
        householdId: grant.householdId,
        tokenHint: hintOf(held.accessToken),
        expiresAt: held.expiresAt,
        flowId: grant.flowId,
      });
    }
    return senders;
  }

  /** The bearer token for a call: the console's own without `as`, else the grant's, or why not. */
  async token(as?: { grantId: string }): Promise<SenderToken> {
    if (!as) return { token: await this.deps.consoleToken.get(), sentAs: { kind: 'console' } };
    const { issuer } = this.deps;
    const grant = issuer.grantView(as.grantId);
    if (!grant) throw new EngineError('not_found', `no grant ${as.grantId}`);
    const held = issuer.held.get(grant.id);
    if (!held) {
      throw new EngineError(
        'conflict',
        `the console holds no access token of grant ${grant.id}: it keeps only the tokens it saw issued since it started (tokens are stored as hashes). Trade a new code or refresh a token of this grant, then send as it again (control.senders lists the grants it can send as)`,
      );
    }
    const found = issuer.lookupAccess(held.accessToken);
    if (!found?.live) {
      const why = found?.reason ?? 'it was never stored';
      throw new EngineError(
        'conflict',
        `the newest access token of grant ${grant.id} the console holds cannot be sent: ${why}. Refresh it (or trade a new code), then send as it again`,
      );
    }
    return {
      token: held.accessToken,
      sentAs: {
        kind: 'grant',
        grantId: grant.id,
        integrationId: grant.integrationId,
        integrationName: this.integrationName(grant.integrationId),
      },
    };
  }

  /** The console's own token's grant: sent as "the console", not listed as an integration. */
  private isConsoles(flowId: string | null): boolean {
    return flowId !== null && this.deps.store.oauthFlows.get(flowId)?.origin === 'console';
  }

  private integrationName(integrationId: string): string {
    return this.deps.store.integrations.get(integrationId)?.name ?? integrationId;
  }
}
