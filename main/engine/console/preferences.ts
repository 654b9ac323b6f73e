/** Command handlers of the UI's preferences (api/types.ts `UiPreferences`), one settings row. */
import type { CommandHandlers } from '../api/runner.js';
import type { UiPreferences } from '../api/types.js';

const KEY = 'ui.preferences';

/** The engine's settings rows (the store's SettingsRepository), as much as preferences need. */
interface SettingsRows {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
}

export function preferenceCommands(
  settings: SettingsRows,
): Pick<CommandHandlers, 'preferences.get' | 'preferences.update'> {
  const read = (): UiPreferences => settings.get<UiPreferences>(KEY) ?? {};
  return {
    'preferences.get': read,
    'preferences.update': (changes) => {
      const next = { ...read(), ...changes };
      settings.set(KEY, next);
      return next;
    },
  };
}
