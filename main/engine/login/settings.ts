/**
 * The login service's settings (docs/contract/console.md §7 `PATCH /admin/api/settings`): auto-approve and
 * production parity, stored with the engine's settings so a restart keeps them.
 */
import type { LoginSettings } from '../api/oauth-types.js';
import type { SettingsRepository } from '../store/repositories/settings.js';

const KEY = 'login.settings';
const DEFAULTS: LoginSettings = { autoApprove: false, productionParity: false };

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
    this.settings.set(KEY, next);
    this.current = next;
    return this.get();
  }
}
