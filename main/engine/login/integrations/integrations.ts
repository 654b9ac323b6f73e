/**
 * `login/integrations/`: what an integration registers: the integration, its named client keys and
 * their redirect URIs (here), what a redirect URI may be (`redirect-uri.ts`), and how a presented
 * one differs from the registered ones (`redirect-compare.ts`).
 *
 * The integration manager (docs/contract/platform.md §1.5, §2.1; docs/contract/console.md §7). A
 * key's secret is returned only when it is created or regenerated and is stored as a SHA-256 hash.
 * Every redirect URI passes the rules of `redirect-uri.ts`.
 */
import {
  REFRESH_GRACE_DEFAULT_SEC,
  REFRESH_GRACE_MAX_SEC,
  type ClientKeyView,
  type CreatedIntegration,
  type IntegrationView,
  type IssuedClientSecret,
  type RedirectUriView,
} from '../../api/oauth-types.js';
import { EngineError } from '../../api/errors.js';
import type { EngineClock } from '../../clock/clock.js';
import type { EventBus } from '../../events/bus.js';
import type { ClientKey } from '../../store/repositories/client-keys.js';
import type { Integration, IntegrationChanges } from '../../store/repositories/integrations.js';
import type { RedirectUri } from '../../store/repositories/redirect-uris.js';
import type { Store } from '../../store/store.js';
import { newId } from '../../security/random.js';
import type { KnownSecrets } from '../../security/known-secrets.js';
import { hintOf, newClientId, randomSecret, sha256 } from '../secrets.js';
import type { LoginSettingsStore } from '../settings.js';
import { checkEventCallbackUrl, eventCallbackWarning } from '../../event-delivery/callback-url.js';
import { checkRedirectUri, isLoopbackRedirectUri } from './redirect-uri.js';

export const DEFAULT_KEY_NAME = 'Default';
const MAX_CACHED_CLIENTS = 1_000;
/** Secrets this run issued, kept in memory for a callback URL set later (docs/events.md). */
const MAX_ISSUED_SECRETS = 1_000;

export interface NewIntegration {
  name: string;
  description?: string;
  category?: string;
  redirectUris: string[];
  keyName?: string;
  rotateRefreshTokens?: boolean;
  /** Seconds a rotated refresh token still answers (docs/contract/console.md §2); REFRESH_GRACE_DEFAULT_SEC unless set. */
  refreshGraceSec?: number;
  /** The first key's event callback URL (docs/contract/console.md §7 event callbacks). */
  eventCallbackUrl?: string;
}

/** A registered client as the login service sees it. */
export interface RegisteredClient {
  integration: Integration;
  key: ClientKey;
  redirectUris: string[];
}

type ManagerStore = Pick<Store, 'integrations' | 'clientKeys' | 'redirectUris' | 'transaction'>;

export class IntegrationManager {
  private readonly clients = new Map<string, RegisteredClient>();
  /**
   * Event signatures need a key's secret in clear, which the store keeps only while the key has a
   * callback URL: a URL set later takes the secret from here, if this run issued it.
   */
  private readonly issuedSecrets = new Map<string, string>();

  constructor(
    private readonly store: ManagerStore,
    private readonly clock: Pick<EngineClock, 'now'>,
    private readonly settings: LoginSettingsStore,
    private readonly bus: Pick<EventBus, 'emit'>,
    /** Client secrets it makes are known by value from then on (console.md §9). */
    private readonly secrets?: KnownSecrets,
  ) {}

  list(): IntegrationView[] {
    return this.store.integrations.list().map((integration) => this.view(integration));
  }

  get(id: string): IntegrationView {
    return this.view(this.integration(id));
  }

  create(input: NewIntegration, options: { sample?: boolean; skipRedirectChecks?: boolean } = {}): CreatedIntegration {
    const name = requireName(input.name, 'name');
    const redirectUris = this.checkRedirectUris(input.redirectUris, options.skipRedirectChecks ?? false);
    const eventCallbackUrl =
      input.eventCallbackUrl === undefined ? null : checkEventCallbackUrl(input.eventCallbackUrl);
    const now = this.now();
    const secret = randomSecret();
    this.secrets?.add(secret);
    const integration: Integration = {
      id: newId('int', now),
      name,
      description: (input.description ?? '').trim(),
      category: (input.category ?? '').trim(),
      rotateRefreshTokens: input.rotateRefreshTokens ?? true,
      refreshGraceSec: checkRefreshGrace(input.refreshGraceSec ?? REFRESH_GRACE_DEFAULT_SEC),
      sample: options.sample ?? false,
      createdAt: now,
      updatedAt: now,
    };
    this.store.transaction(() => {
      this.store.integrations.create(integration);
      const key = this.insertKey(integration.id, input.keyName ?? DEFAULT_KEY_NAME, secret, now, eventCallbackUrl);
      for (const uri of redirectUris) this.insertRedirectUri(key.id, uri, now);
    });
    this.changed();
    return { ...this.view(integration), clientSecret: secret };
  }

  update(id: string, changes: IntegrationChanges): IntegrationView {
    this.integration(id);
    const clean: IntegrationChanges = { ...changes };
    if (changes.name !== undefined) clean.name = requireName(changes.name, 'name');
    if (changes.description !== undefined) clean.description = changes.description.trim();
    if (changes.category !== undefined) clean.category = changes.category.trim();
    if (changes.refreshGraceSec !== undefined) clean.refreshGraceSec = checkRefreshGrace(changes.refreshGraceSec);
    const updated = this.store.integrations.update(id, clean, this.now())!;
    this.changed();
    return this.view(updated);
  }

  /** Deletes the integration and everything issued under it: its tokens stop working at once. */
  delete(id: string): { id: string; deleted: true } {
    this.integration(id);
    this.store.integrations.delete(id);
    this.changed();
    this.bus.emit('oauth.changed', { what: 'grants' });
    return { id, deleted: true };
  }

  createKey(
    integrationId: string,
    input: { name?: string; redirectUris?: string[]; eventCallbackUrl?: string },
  ): IssuedClientSecret {
    this.integration(integrationId);
    // The contract's table names no `name` for a key: without one it is "Key N", N its place.
    const name =
      input.name === undefined
        ? `Key ${this.store.clientKeys.listByIntegration(integrationId).length + 1}`
        : requireName(input.name, 'key name');
    const redirectUris = this.checkRedirectUris(input.redirectUris ?? [], false, true);
    const eventCallbackUrl =
      input.eventCallbackUrl === undefined ? null : checkEventCallbackUrl(input.eventCallbackUrl);
    const secret = randomSecret();
    this.secrets?.add(secret);
    const now = this.now();
    const key = this.store.transaction(() => {
      const created = this.insertKey(integrationId, name, secret, now, eventCallbackUrl);
      for (const uri of redirectUris) this.insertRedirectUri(created.id, uri, now);
      return created;
    });
    this.touch(integrationId);
    return { integrationId, key: this.keyView(key), clientId: key.clientId, clientSecret: secret };
  }

  /** A new secret for a key: the old one stops working at once. */
  regenerateSecret(integrationId: string, keyId: string): IssuedClientSecret {
    const key = this.key(integrationId, keyId);
    const secret = randomSecret();
    this.secrets?.add(secret);
    const now = this.now();
    this.store.transaction(() => {
      this.store.clientKeys.setSecret(key.id, sha256(secret), hintOf(secret), now);
      // Events are signed with the secret the client holds: the new one from now on.
      if (key.eventCallbackUrl !== null) this.store.clientKeys.setEventCallback(key.id, key.eventCallbackUrl, secret);
    });
    this.rememberSecret(key.id, secret);
    this.touch(integrationId);
    const updated = this.store.clientKeys.get(key.id)!;
    return { integrationId, key: this.keyView(updated), clientId: updated.clientId, clientSecret: secret };
  }

  /**
   * Sets or (with null) removes a key's event callback URL. Its events are signed with its secret,
   * which the store holds only hashed until a URL is set: a key whose secret this run did not issue
   * needs a new one first, and is refused with that said.
   */
  updateKey(integrationId: string, keyId: string, changes: { eventCallbackUrl?: string | null }): ClientKeyView {
    const key = this.key(integrationId, keyId);
    if (changes.eventCallbackUrl !== undefined) {
      if (changes.eventCallbackUrl === null) {
        this.store.clientKeys.setEventCallback(key.id, null, null);
      } else {
        const url = checkEventCallbackUrl(changes.eventCallbackUrl);
        const secret = key.eventSigningSecret ?? this.issuedSecrets.get(key.id);
        if (secret === undefined) {
          throw new EngineError(
            'conflict',
            `events of key "${key.name}" are signed with its client secret, which the console stores only hashed and no longer holds (it was issued before the console last started): regenerate the secret, then set the event callback URL`,
            { keyId: key.id, eventCallbackUrl: url },
          );
        }
        this.store.clientKeys.setEventCallback(key.id, url, secret);
      }
      this.touch(integrationId);
    }
    return this.keyView(this.store.clientKeys.get(key.id)!);
  }

  deleteKey(integrationId: string, keyId: string): IntegrationView {
    this.key(integrationId, keyId);
    this.store.clientKeys.delete(keyId);
    this.touch(integrationId);
    this.bus.emit('oauth.changed', { what: 'grants' });
    return this.get(integrationId);
  }

  addRedirectUri(integrationId: string, keyId: string, uri: string): ClientKeyView {
    const key = this.key(integrationId, keyId);
    const [checked] = this.checkRedirectUris([uri], false);
    if (this.store.redirectUris.listByKey(key.id).some((r) => r.uri === checked)) {
      throw new EngineError('conflict', `${checked} is already registered for this key`, { uri: checked });
    }
    this.insertRedirectUri(key.id, checked!, this.now());
    this.touch(integrationId);
    return this.keyView(key);
  }

  removeRedirectUri(integrationId: string, keyId: string, redirectUriId: string): ClientKeyView {
    const key = this.key(integrationId, keyId);
    const redirectUri = this.store.redirectUris.get(redirectUriId);
    if (!redirectUri || redirectUri.keyId !== key.id)
      throw new EngineError('not_found', `no redirect URI ${redirectUriId} on key ${keyId}`);
    this.store.redirectUris.delete(redirectUriId);
    this.touch(integrationId);
    return this.keyView(key);
  }

  /**
   * The client a client_id names, with its redirect URIs; undefined when unknown. Every request
   * of the login service asks this, so known clients are kept until the next change.
   */
  findClient(clientId: string): RegisteredClient | undefined {
    const cached = this.clients.get(clientId);
    if (cached) return cached;
    const key = this.store.clientKeys.findByClientId(clientId);
    if (!key) return undefined;
    const integration = this.store.integrations.get(key.integrationId);
    if (!integration) return undefined;
    const client = { integration, key, redirectUris: this.store.redirectUris.listByKey(key.id).map((r) => r.uri) };
    if (this.clients.size >= MAX_CACHED_CLIENTS) this.clients.clear();
    this.clients.set(clientId, client);
    return client;
  }

  /** Sets a key's redirect URIs to exactly `uris` (the sample integration follows the console's port). */
  replaceRedirectUris(keyId: string, uris: readonly string[]): void {
    const now = this.now();
    this.store.transaction(() => {
      const current = this.store.redirectUris.listByKey(keyId);
      for (const r of current) if (!uris.includes(r.uri)) this.store.redirectUris.delete(r.id);
      for (const uri of uris) if (!current.some((r) => r.uri === uri)) this.insertRedirectUri(keyId, uri, now);
    });
    this.changed();
  }

  view(integration: Integration): IntegrationView {
    const keys = this.store.clientKeys.listByIntegration(integration.id).map((key) => this.keyView(key));
    return {
      ...integration,
      clientId: keys[0]?.clientId ?? null,
      redirectUris: keys[0]?.redirectUris.map((r) => r.uri) ?? [],
      warnings: keys.flatMap((key) => key.redirectUris.filter((r) => r.warning).map((r) => `${r.uri}: ${r.warning}`)),
      keys,
    };
  }

  private keyView(key: ClientKey): ClientKeyView {
    return {
      id: key.id,
      name: key.name,
      clientId: key.clientId,
      secretHint: key.secretHint,
      secretSetAt: key.secretSetAt,
      createdAt: key.createdAt,
      redirectUris: this.store.redirectUris.listByKey(key.id).map(redirectUriView),
      eventCallbackUrl: key.eventCallbackUrl,
      eventCallbackWarning: key.eventCallbackUrl === null ? null : eventCallbackWarning(key.eventCallbackUrl),
    };
  }

  private integration(id: string): Integration {
    const integration = this.store.integrations.get(id);
    if (!integration) throw new EngineError('not_found', `no integration ${id}`);
    return integration;
  }

  private key(integrationId: string, keyId: string): ClientKey {
    this.integration(integrationId);
    const key = this.store.clientKeys.get(keyId);
    if (!key || key.integrationId !== integrationId)
      throw new EngineError('not_found', `no key ${keyId} on integration ${integrationId}`);
    return key;
  }

  private insertKey(
    integrationId: string,
    name: string,
    secret: string,
    now: number,
    eventCallbackUrl: string | null = null,
  ): ClientKey {
    const key = this.store.clientKeys.create({
      id: newId('key', now),
      integrationId,
      name,
      clientId: newClientId(),
      secretHash: sha256(secret),
      secretHint: hintOf(secret),
      createdAt: now,
      secretSetAt: now,
      eventCallbackUrl,
      eventSigningSecret: eventCallbackUrl === null ? null : secret,
    });
    this.rememberSecret(key.id, secret);
    return key;
  }

  private rememberSecret(keyId: string, secret: string): void {
    this.issuedSecrets.delete(keyId);
    if (this.issuedSecrets.size >= MAX_ISSUED_SECRETS)
      this.issuedSecrets.delete(this.issuedSecrets.keys().next().value!);
    this.issuedSecrets.set(keyId, secret);
  }

  private insertRedirectUri(keyId: string, uri: string, now: number): RedirectUri {
    return this.store.redirectUris.create({ id: newId('uri', now), keyId, uri, createdAt: now });
  }

  /** Every URI checked; the first refused one fails the whole call, naming the URI and why. */
  private checkRedirectUris(uris: readonly string[], skip: boolean, allowNone = false): string[] {
    if (uris.length === 0 && !allowNone)
      throw new EngineError(
        'invalid_input',
        'an integration needs at least one redirect URL (docs/contract/platform.md §1.5)',
      );
    const { productionParity } = this.settings.get();
    const refused = skip
      ? []
      : uris.map((uri) => ({ uri, verdict: checkRedirectUri(uri, { productionParity }) })).filter((r) => !r.verdict.ok);
    const first = refused[0];
    if (first && !first.verdict.ok) {
      throw new EngineError(
        'invalid_input',
        `redirect URL ${JSON.stringify(first.uri)} refused: ${first.verdict.reason}`,
        {
          refused: refused.map((r) => ({ uri: r.uri, reason: r.verdict.ok ? '' : r.verdict.reason })),
        },
      );
    }
    return [...new Set(uris)];
  }

  private touch(integrationId: string): void {
    this.store.integrations.update(integrationId, {}, this.now());
    this.changed();
  }

  private changed(): void {
    this.clients.clear();
    this.bus.emit('oauth.changed', { what: 'integrations' });
  }

  private now(): number {
    return Math.floor(this.clock.now());
  }
}

function redirectUriView(redirectUri: RedirectUri): RedirectUriView {
  const verdict = checkRedirectUri(redirectUri.uri, { productionParity: false });
  const loopback = isLoopbackRedirectUri(redirectUri.uri);
  return { id: redirectUri.id, uri: redirectUri.uri, loopback, warning: verdict.ok ? verdict.warning : null };
}

/** Whole seconds from 0 (strict) to REFRESH_GRACE_MAX_SEC; the admin API's schema says the same. */
function checkRefreshGrace(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > REFRESH_GRACE_MAX_SEC) {
    throw new EngineError(
      'invalid_input',
      `refreshGraceSec must be a whole number of seconds from 0 to ${REFRESH_GRACE_MAX_SEC}`,
    );
  }
  return seconds;
}

function requireName(value: string, what: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new EngineError('invalid_input', `the ${what} must not be empty`);
  return trimmed;
}
