/**
 * The newest access token of each grant, as it was issued in this run, so that the command bar can
 * send a control call as an integration (`control.send` with `as`) and not only as the
 * console. Tokens are stored only as hashes (docs/contract/console.md §9), so this is memory
 * alone: a token issued before a restart is not held, and the grant cannot be sent as until it
 * gets a new one (a code traded or a token refreshed). Whether a held token still works is asked
 * of the store when it is used (expired, revoked, its grant revoked), never assumed.
 */
const MAX_HELD = 1_000;

export interface HeldToken {
  grantId: string;
  accessToken: string;
  issuedAt: number;
  expiresAt: number;
}

export class HeldAccessTokens {
  private readonly byGrant = new Map<string, HeldToken>();

  /** The grant's newest access token (a refresh replaces the one before). */
  hold(token: HeldToken): void {
    this.byGrant.delete(token.grantId);
    this.byGrant.set(token.grantId, token);
    // The oldest grants first: a long run with many grants keeps the newest.
    if (this.byGrant.size > MAX_HELD) this.byGrant.delete(this.byGrant.keys().next().value!);
  }

  get(grantId: string): HeldToken | undefined {
    return this.byGrant.get(grantId);
  }

  /** Newest first. */
  all(): HeldToken[] {
    return [...this.byGrant.values()].reverse();
  }
}
