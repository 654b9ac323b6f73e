/**
 * Keeps the UI's preferences (the theme, the guided demo closed) in the engine as well as in the
 * browser. The browser's copy paints the first frame; the engine's (the data dir's) is the truth,
 * since a browser keeps what a page stores per origin and `--port 0` gives each start another.
 * On every connection the engine's are read and taken; a choice made here goes to the engine.
 * A browser that chose before the engine knew anything (an older console) tells it.
 */
import type { UiPreferences } from '@engine-api/types';
import type { Api } from '../api';
import { useDemoStore } from './demo';
import { useThemeStore } from './theme';

export function wirePreferences(api: Api): { connected(): void; stop(): void } {
  // What the engine holds, once known: a change equal to it is not sent back.
  let held: UiPreferences | null = null;
  // Chosen here before the engine answered: the user's latest word wins over what it held.
  let chosen: UiPreferences = {};
  const send = (changes: UiPreferences) => {
    held = { ...held, ...changes };
    void api.call('preferences.update', changes).catch(() => undefined);
  };
  const offTheme = useThemeStore.subscribe((now, before) => {
    if (now.theme === before.theme) return;
    if (!held) chosen.theme = now.theme;
    else if (now.theme !== (held.theme ?? 'system')) send({ theme: now.theme });
  });
  const offDemo = useDemoStore.subscribe((now, before) => {
    if (!now.dismissed || before.dismissed) return;
    if (!held) chosen.demoDismissed = true;
    else if (!held.demoDismissed) send({ demoDismissed: true });
  });
  return {
    connected: () => {
      void api.call('preferences.get', {}).then(
        (engine) => {
          const prefs = { ...engine, ...chosen };
          held = engine;
          if (Object.keys(chosen).length) send(chosen);
          chosen = {};
          const theme = useThemeStore.getState();
          if (prefs.theme && prefs.theme !== theme.theme) theme.setTheme(prefs.theme);
          else if (!prefs.theme && theme.theme !== 'system') send({ theme: theme.theme });
          const demo = useDemoStore.getState();
          if (demo.dismissed && !prefs.demoDismissed) send({ demoDismissed: true });
          else demo.firstRunKnown(prefs.demoDismissed === true);
        },
        () => undefined,
      );
    },
    stop: () => {
      offTheme();
      offDemo();
    },
  };
}
