// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyTheme, readTheme, THEME_KEY, useThemeStore } from '../stores/theme';
import boot from '../../public/theme-boot.js?raw';
import { ThemeSwitch } from './ThemeSwitch';

beforeEach(() => {
  localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
  useThemeStore.setState({ theme: readTheme() });
});
afterEach(cleanup);

const radio = (name: string) => screen.getByRole('radio', { name });

describe('the theme switch', () => {
  it('starts on the system’s scheme, with no attribute on the page', () => {
    render(<ThemeSwitch />);
    expect(screen.getByRole('radiogroup', { name: 'Theme' })).toBeTruthy();
    expect(radio('System theme').getAttribute('aria-checked')).toBe('true');
    expect(radio('System theme').tabIndex).toBe(0);
    expect(radio('Dark theme').tabIndex).toBe(-1);
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
  });

  it('applies a choice to <html> and remembers it; the system’s forgets it', async () => {
    const user = userEvent.setup();
    render(<ThemeSwitch />);
    await user.click(radio('Dark theme'));
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
    expect(radio('Dark theme').getAttribute('aria-checked')).toBe('true');
    expect(radio('Dark theme').tabIndex).toBe(0);

    await user.click(radio('System theme'));
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    expect(localStorage.getItem(THEME_KEY)).toBeNull();
  });

  it('is one Tab stop whose arrow keys choose, as radio buttons do', async () => {
    const user = userEvent.setup();
    render(<ThemeSwitch />);
    await user.tab();
    expect(document.activeElement).toBe(radio('System theme'));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(radio('Light theme'));
    expect(document.documentElement.getAttribute('data-theme')).toBe('light');
    await user.keyboard('{End}');
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(radio('System theme'));
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
  });
});

describe('the remembered theme', () => {
  it('reads what was stored, and the system’s for anything else or a refused storage', () => {
    expect(readTheme({ getItem: () => 'light' })).toBe('light');
    expect(readTheme({ getItem: () => 'sepia' })).toBe('system');
    expect(readTheme({ getItem: () => null })).toBe('system');
    expect(
      readTheme({
        getItem: () => {
          throw new Error('SecurityError');
        },
      }),
    ).toBe('system');
  });

  it('is applied as the page’s attribute, none for the system’s', () => {
    const root = document.createElement('html');
    applyTheme('dark', root);
    expect(root.getAttribute('data-theme')).toBe('dark');
    applyTheme('system', root);
    expect(root.hasAttribute('data-theme')).toBe(false);
  });

  it('is read by theme-boot.js with the same key and values', () => {
    expect(boot).toContain(`localStorage.getItem('${THEME_KEY}')`);
    localStorage.setItem(THEME_KEY, 'dark');
    new Function(boot)();
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
  });
});
