/**
 * The theme switch: the system's colour scheme, light or dark, as a radio group of three icon
 * buttons (one Tab stop, arrow keys choose). Each says its name in its accessible name and title.
 */
import type { ComponentType } from 'react';
import { useThemeStore, type Theme } from '../stores/theme';
import { MonitorIcon, MoonIcon, SunIcon } from './icons';
import { onRovingKeyDown, rovingTabIndex } from './roving';

const CHOICES: { theme: Theme; label: string; Icon: ComponentType }[] = [
  { theme: 'system', label: 'System theme', Icon: MonitorIcon },
  { theme: 'light', label: 'Light theme', Icon: SunIcon },
  { theme: 'dark', label: 'Dark theme', Icon: MoonIcon },
];

export function ThemeSwitch() {
  const theme = useThemeStore((s) => s.theme);
  const setTheme = useThemeStore((s) => s.setTheme);
  return (
    <div className="segmented theme-switch" role="radiogroup" aria-label="Theme" onKeyDown={onRovingKeyDown}>
      {CHOICES.map(({ theme: choice, label, Icon }, index) => (
        <button
          key={choice}
          type="button"
          role="radio"
          aria-checked={theme === choice}
          aria-label={label}
          title={label}
          tabIndex={rovingTabIndex(theme === choice, index === 0, true)}
          onClick={() => setTheme(choice)}
        >
          <Icon />
        </button>
      ))}
    </div>
  );
}
