/**
 * The login service's settings (docs/contract/console.md §7 `PATCH /admin/api/settings`): auto-approve,
 * production parity and redirect capture, stored with the engine's settings so a restart keeps them.
 * Redirect capture is off unless turned on: the platform's login service sends every redirect
 * with its code (docs/contract/platform.md §4.1), and a console that kept them by default answered
 * an https redirect URI with a 303 to its own page, which no client written against the platform
 * follows. An integrator whose redirect URL is a real host turns it on (docs/login-service.md).
 */
import type { LoginSettings } from '../api/oauth-types.js';
import type { SettingsRepository } from '../store/repositories/settings.js';

const KEY = 'login.settings';
const DEFAULTS: LoginSettings = { autoApprove: false, productionParity: false, captureRedirects: false };

export class LoginSettingsStore {
  private current: LoginSettings;

  constructor(private readonly settings: SettingsRepository) {
    this.current = { ...DEFAULTS, ...settings.get<Partial<LoginSettings>>(KEY) };
  }

  get(): LoginSettings {
    return { ...this.current };
  }

  update(changes: Partial<LoginSettings>): LoginSettings {
    const next = { ...this.current };
    if (changes.autoApprove !== undefined) next.autoApprove = changes.autoApprove;
    if (changes.productionParity !== undefined) next.productionParity = changes.productionParity;
    if (changes.captureRedirects !== undefined) next.captureRedirects = changes.captureRedirects;
    this.settings.set(KEY, next);
    this.current = next;
    return this.get();
  }
}
