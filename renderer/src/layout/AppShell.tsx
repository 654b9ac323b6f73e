/**
 * The frame: areas on the left, the open area's route in the middle, the status bar along the
 * bottom; the frame's keys (shortcuts/shortcuts.ts), the command palette, the `?` sheet and the
 * tab title around them.
 */
import { Outlet } from '@tanstack/react-router';
import { useRef } from 'react';
import { CommandPalette } from '../components/CommandPalette';
import { ShortcutSheet } from '../components/ShortcutSheet';
import { useRememberAreas } from '../router/area-memory';
import { TabTitle } from '../router/TabTitle';
import { useFrameShortcuts } from '../shortcuts/useFrameShortcuts';
import { useDemoStore } from '../stores/demo';
import { useEngineWiring } from '../stores/wiring';
import { EngineLost } from './EngineLost';
import { Sidebar } from './Sidebar';
import { UnknownRoute } from './UnknownRoute';
import { StatusBar } from './StatusBar';
import styles from './AppShell.module.css';

export function AppShell() {
  useEngineWiring();
  useRememberAreas();
  useFrameShortcuts();
  // The guided demo's checklist, open and unfolded, takes the lower right (AppShell.module.css).
  const demo = useDemoStore((s) => (s.open && !s.folded ? 'open' : undefined));
  const main = useRef<HTMLElement>(null);
  return (
    <div className={styles.app}>
      {/* The first Tab stop, shown when focused: past the areas' list to the open area (WCAG 2.4.1). */}
      <button type="button" className={styles.skip} onClick={() => main.current?.focus()}>
        Skip to the area
      </button>
      <Sidebar />
      <main ref={main} tabIndex={-1} className={styles.content} data-demo={demo}>
        <EngineLost />
        <UnknownRoute />
        <Outlet />
      </main>
      <StatusBar />
      <TabTitle />
      <CommandPalette />
      <ShortcutSheet />
    </div>
  );
}
