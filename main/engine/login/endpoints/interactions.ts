/**
 * Sign-ins in progress between the login page, the consent page and the final redirect. Each is
 * bound to the browser that started it by a cookie (so nobody else can finish it, and no other
 * site can log a user in under someone else's name) and to its pages by a CSRF token. They live
 * 600 s on the engine clock, in memory: a restart simply asks the user to start again.
 */
import type { EngineClock } from '../../clock/clock.js';
import { AUTHORIZE_PATH } from '../paths.js';
import { matchesHash, randomSecret, sameSecret, sha256 } from '../secrets.js';
import type { AuthorizationRequest } from './authorize.js';

export const INTERACTION_LIFETIME_MS = 600_000;
export const MAX_FAILED_SIGN_INS = 5;
/** Pending sign-ins kept at most; the oldest goes first. */
const MAX_INTERACTIONS = 1_000;
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
    if (this.pending.size >= MAX_INTERACTIONS) this.pending.delete(this.pending.keys().next().value!);
    this.pending.set(id, interaction);
    return { interaction, cookie: cookieHeader(id, binding, INTERACTION_LIFETIME_MS / 1000) };
  }

  /** The sign-in named by `id`, if this browser started it (its cookie) and it has not expired. */
  find(id: string | undefined, cookieHeaderValue: string | undefined): InteractionLookup {
    if (!id) return { ok: false, why: 'the form does not name a sign-in' };
    const interaction = this.pending.get(id);
    if (!interaction) return { ok: false, why: 'this sign-in is unknown or already finished' };
    if (interaction.expiresAt <= this.clock.now()) {
      this.pending.delete(id);
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
    this.pending.delete(interaction.id);
    return cookieHeader(interaction.id, '', 0);
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
