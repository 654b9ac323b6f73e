/**
 * The one client secret kept in clear (docs/events.md; docs/contract/console.md §9): a key's, while
 * it has an event callback URL, and only then. Read from the store's own row, as it is on disk.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IntegrationManager } from '../login/integrations/integrations.js';
import { LoginSettingsStore } from '../login/settings.js';
import { openStore, type Store } from '../store/store.js';

let store: Store;
let manager: IntegrationManager;
const stored = (keyId: string) =>
  store.db
    .prepare<[string], { event_callback_url: string | null; event_signing_secret: string | null }>(
      'SELECT event_callback_url, event_signing_secret FROM client_keys WHERE id = ?',
    )
    .get(keyId);

beforeEach(() => {
  store = openStore({ dataDir: null });
  manager = new IntegrationManager(store, { now: () => 0 }, new LoginSettingsStore(store.settings), {
    emit: () => undefined,
  });
});
afterEach(() => store.close());

describe('a key\u2019s signing secret', () => {
  it('is stored only while the key has a callback URL, and follows a new secret', () => {
    const bare = manager.create({ name: 'Bare', redirectUris: ['http://127.0.0.1:9/cb'] });
    expect(stored(bare.keys[0]!.id)).toEqual({ event_callback_url: null, event_signing_secret: null });

    const withUrl = manager.create({
      name: 'With URL',
      redirectUris: ['http://127.0.0.1:9/cb'],
      eventCallbackUrl: 'http://127.0.0.1:9/events',
    });
    const keyId = withUrl.keys[0]!.id;
    expect(stored(keyId)).toEqual({
      event_callback_url: 'http://127.0.0.1:9/events',
      event_signing_secret: withUrl.clientSecret,
    });

    const issued = manager.regenerateSecret(withUrl.id, keyId);
    expect(stored(keyId)).toEqual({
      event_callback_url: 'http://127.0.0.1:9/events',
      event_signing_secret: issued.clientSecret,
    });

    manager.updateKey(withUrl.id, keyId, { eventCallbackUrl: null });
    expect(stored(keyId)).toEqual({ event_callback_url: null, event_signing_secret: null });

    // Set again in the same run: the console still holds the secret it issued.
    manager.updateKey(withUrl.id, keyId, { eventCallbackUrl: 'https://app.example.com/events' });
    expect(stored(keyId)).toEqual({
      event_callback_url: 'https://app.example.com/events',
      event_signing_secret: issued.clientSecret,
    });
  });

  it('cannot be had for a key whose secret another run issued', () => {
    const created = manager.create({ name: 'Old', redirectUris: ['http://127.0.0.1:9/cb'] });
    // A new manager on the same store is the next start: only the hash is left.
    const next = new IntegrationManager(store, { now: () => 0 }, new LoginSettingsStore(store.settings), {
      emit: () => undefined,
    });
    expect(() =>
      next.updateKey(created.id, created.keys[0]!.id, { eventCallbackUrl: 'http://127.0.0.1:9/events' }),
    ).toThrow(/regenerate the secret/);
    expect(stored(created.keys[0]!.id)).toEqual({ event_callback_url: null, event_signing_secret: null });
  });
});
