/**
 * The colour scheme the user chose: the system's, light or dark. Remembered in localStorage and
 * shown as `<html data-theme>` (no attribute: the system's), which styles.css reads through
 * `color-scheme`. renderer/public/theme-boot.js applies the remembered choice before the first
 * paint (the CSP allows no inline script); applyTheme here does it again and on every change.
 */
import { create } from 'zustand';

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** The key theme-boot.js reads too. */
export const THEME_KEY = 'cqc-theme';

function isTheme(value: unknown): value is Theme {
  return THEMES.includes(value as Theme);
}

/** The remembered choice; "system" when none is, it is unreadable, or storage is refused. */
export function readTheme(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): Theme {
  try {
    const value = storage?.getItem(THEME_KEY);
    return isTheme(value) ? value : 'system';
  } catch {
    return 'system';
  }
}

/** Shows the choice on the page: the attribute for light or dark, none for the system's. */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (theme === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', theme);
}

interface ThemeStore {
  theme: Theme;
  setTheme(theme: Theme): void;
}

export const useThemeStore = create<ThemeStore>((set) => ({
  theme: readTheme(),
  // The engine's preferences (stores/preferences.ts) set it this way too: remembered here as well,
  // so the next load paints it before the engine answers.
  setTheme: (theme) => {
    try {
      if (theme === 'system') globalThis.localStorage?.removeItem(THEME_KEY);
      else globalThis.localStorage?.setItem(THEME_KEY, theme);
    } catch {
      // Storage refused (a locked-down profile): the choice holds until the page reloads.
    }
    applyTheme(theme);
    set({ theme });
  },
}));
