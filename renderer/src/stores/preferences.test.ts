// @vitest-environment happy-dom
/**
 * The UI's preferences follow the engine's (the data dir's): a console started on another port
 * (`--port 0`) is another origin, whose browser storage is empty, and still shows the theme chosen
 * and keeps the guided demo closed (audit: both were lost at every restart).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UiPreferences } from '@engine-api/types';
import { Api } from '../api/client';
import { useDemoStore } from './demo';
import { wirePreferences } from './preferences';
import { useThemeStore } from './theme';

let engine: UiPreferences;
let updates: UiPreferences[];
let answerGet: (() => void) | null;

function fakeApi(options: { holdGet?: boolean } = {}): Api {
  return new Api({
    kind: 'http',
    subscribe: () => () => undefined,
    call: async (name, input) => {
      if (name === 'preferences.get') {
        if (options.holdGet) await new Promise<void>((resolve) => (answerGet = resolve));
        return { ok: true, value: { ...engine } as never };
      }
      if (name === 'preferences.update') {
        updates.push(input as UiPreferences);
        engine = { ...engine, ...(input as UiPreferences) };
        return { ok: true, value: engine as never };
      }
      return { ok: false, error: { code: 'not_found', message: name } };
    },
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  localStorage.clear();
  engine = {};
  updates = [];
  answerGet = null;
  useThemeStore.getState().setTheme('system');
  // A first run in this browser: the demo waits for the engine's word.
  useDemoStore.setState({ open: false, dismissed: false });
});
afterEach(() => localStorage.clear());

describe('wirePreferences', () => {
  it("takes the engine's theme and closed demo on a browser that has neither, sending nothing back", async () => {
    engine = { theme: 'dark', demoDismissed: true };
    const wired = wirePreferences(fakeApi());
    wired.connected();
    await settle();
    expect(useThemeStore.getState().theme).toBe('dark');
    expect(document.documentElement.getAttribute('data-theme')).toBe('dark');
    expect(useDemoStore.getState()).toMatchObject({ open: false, dismissed: true });
    expect(updates).toEqual([]);
    wired.stop();
  });

  it('opens the demo on a first run once the engine says it was closed nowhere', async () => {
    const wired = wirePreferences(fakeApi());
    expect(useDemoStore.getState().open).toBe(false);
    wired.connected();
    await settle();
    expect(useDemoStore.getState()).toMatchObject({ open: true, dismissed: false });
    wired.stop();
  });

  it('sends a choice made once the engine is known, and what a browser chose before it knew', async () => {
    useThemeStore.getState().setTheme('light');
    const wired = wirePreferences(fakeApi());
    wired.connected();
    await settle();
    // An older console's browser had chosen light: the engine learns it.
    expect(updates).toEqual([{ theme: 'light' }]);
    useThemeStore.getState().setTheme('dark');
    useDemoStore.getState().hide();
    await settle();
    expect(engine).toEqual({ theme: 'dark', demoDismissed: true });
    wired.stop();
  });

  it('keeps a choice made while the engine had not answered yet', async () => {
    engine = { theme: 'dark' };
    const wired = wirePreferences(fakeApi({ holdGet: true }));
    wired.connected();
    await settle();
    useThemeStore.getState().setTheme('light');
    answerGet!();
    await settle();
    await settle();
    expect(useThemeStore.getState().theme).toBe('light');
    expect(engine.theme).toBe('light');
    wired.stop();
  });
});
