/**
 * Sign-ins in progress between the login page, the consent page and the final redirect. Each is
 * bound to the browser that started it by a cookie (so nobody else can finish it, and no other
 * site can log a user in under someone else's name) and to its pages by a CSRF token. They live
 * 600 s on the engine clock, in memory: a restart simply asks the user to start again. Each
 * client key keeps its own newest sign-ins, so a client that floods the authorize endpoint evicts
 * only its own (docs/contract/console.md §9).
 */
import type { EngineClock } from '../../clock/clock.js';
import { AUTHORIZE_PATH } from '../paths.js';
import { matchesHash, randomSecret, sameSecret, sha256 } from '../secrets.js';
import type { AuthorizationRequest } from './authorize.js';

export const INTERACTION_LIFETIME_MS = 600_000;
export const MAX_FAILED_SIGN_INS = 5;
/** Pending sign-ins kept per client key; its oldest goes first. */
export const MAX_INTERACTIONS_PER_CLIENT = 50;
/**
 * Pending sign-ins kept in all, a bound on memory however many keys there are; when it is reached,
 * the oldest sign-in of the client with the most goes, never another client's only ones.
 */
export const MAX_INTERACTIONS = 10_000;
const COOKIE_PREFIX = 'cqc_signin_';

export interface Interaction {
  id: string;
  csrf: string;
  flowId: string;
  request: AuthorizationRequest;
  /** Set once the user signed in. */
  userId: string | null;
  username: string | null;
  failedSignIns: number;
  expiresAt: number;
  bindingHash: Buffer;
}

export type InteractionLookup = { ok: true; interaction: Interaction } | { ok: false; why: string };

export class Interactions {
  private readonly pending = new Map<string, Interaction>();
  /** The ids of each client key's pending sign-ins, oldest first. */
  private readonly byClient = new Map<string, Set<string>>();

  constructor(private readonly clock: Pick<EngineClock, 'now'>) {}

  /** A new sign-in; the caller sets `cookie` on the response. */
  create(request: AuthorizationRequest, flowId: string): { interaction: Interaction; cookie: string } {
    const id = randomSecret(16);
    const binding = randomSecret(32);
    const interaction: Interaction = {
      id,
      csrf: randomSecret(32),
      flowId,
      request,
      userId: null,
      username: null,
      failedSignIns: 0,
      expiresAt: this.clock.now() + INTERACTION_LIFETIME_MS,
      bindingHash: sha256(binding),
    };
    this.makeRoomFor(request.client.key.clientId);
    this.pending.set(id, interaction);
    this.idsOf(request.client.key.clientId).add(id);
    return { interaction, cookie: cookieHeader(id, binding, INTERACTION_LIFETIME_MS / 1000) };
  }

  /** The sign-in named by `id`, if this browser started it (its cookie) and it has not expired. */
  find(id: string | undefined, cookieHeaderValue: string | undefined): InteractionLookup {
    if (!id) return { ok: false, why: 'the form does not name a sign-in' };
    const interaction = this.pending.get(id);
    if (!interaction) return { ok: false, why: 'this sign-in is unknown or already finished' };
    if (interaction.expiresAt <= this.clock.now()) {
      this.forget(interaction);
      return { ok: false, why: 'this sign-in expired (a sign-in lasts 10 minutes on the engine clock)' };
    }
    const binding = readCookie(cookieHeaderValue, COOKIE_PREFIX + id);
    if (!binding || !matchesHash(binding, interaction.bindingHash)) {
      return { ok: false, why: 'this sign-in was started in another browser (or cookies are blocked)' };
    }
    return { ok: true, interaction };
  }

  /** A form's CSRF token matches its sign-in. */
  checkCsrf(interaction: Interaction, presented: string | undefined): boolean {
    return presented !== undefined && sameSecret(presented, interaction.csrf);
  }

  /** Ends a sign-in; returns the header that clears its cookie. */
  finish(interaction: Interaction): string {
    this.forget(interaction);
    return cookieHeader(interaction.id, '', 0);
  }

  private makeRoomFor(clientId: string): void {
    const own = this.idsOf(clientId);
    // Expired sign-ins of this client go first; they can no longer be finished anyway.
    const now = this.clock.now();
    for (const id of own) if (this.pending.get(id)!.expiresAt <= now) this.forget(this.pending.get(id)!);
    while (own.size >= MAX_INTERACTIONS_PER_CLIENT) this.forgetOldestOf(own);
    if (this.pending.size >= MAX_INTERACTIONS) {
      let largest = own;
      for (const ids of this.byClient.values()) if (ids.size > largest.size) largest = ids;
      this.forgetOldestOf(largest);
    }
  }

  private forgetOldestOf(ids: Set<string>): void {
    const oldest = ids.values().next().value;
    if (oldest !== undefined) this.forget(this.pending.get(oldest)!);
  }

  private idsOf(clientId: string): Set<string> {
    let ids = this.byClient.get(clientId);
    if (!ids) this.byClient.set(clientId, (ids = new Set()));
    return ids;
  }

  private forget(interaction: Interaction): void {
    this.pending.delete(interaction.id);
    const clientId = interaction.request.client.key.clientId;
    const ids = this.byClient.get(clientId);
    ids?.delete(interaction.id);
    if (ids?.size === 0) this.byClient.delete(clientId);
  }
}

function cookieHeader(id: string, value: string, maxAgeSeconds: number): string {
  return `${COOKIE_PREFIX}${id}=${value}; Path=${AUTHORIZE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}`;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
