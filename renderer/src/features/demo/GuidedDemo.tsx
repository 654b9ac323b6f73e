/**
 * The guided demo (docs/demo.md): a checklist a presenter clicks through, one button a step —
 * sign in as the sample integration, play a sample queue on a player, skip, pause, see the
 * reports reach the server, inject a 503 and watch the retries — each ticking when the engine
 * confirms it. Mounted once in the sidebar's footer: its button there opens it, as do the palette
 * and its key (shortcuts.ts); on a first run it opens by itself (stores/demo.ts).
 */
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { matchesShortcut, SHORTCUTS } from '../../shortcuts/shortcuts';
import { useDemoStore } from '../../stores/demo';
import { DemoChecklist } from './DemoChecklist';
import styles from './demo.module.css';

const DEMO_SHORTCUT = SHORTCUTS.find((s) => s.handledBy === 'the guided demo');

export function GuidedDemo() {
  const open = useDemoStore((s) => s.open);
  const toggle = useDemoStore((s) => s.toggle);
  const hide = useDemoStore((s) => s.hide);
  const launcher = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  const opened = useRef(false);

  useEffect(() => {
    if (!DEMO_SHORTCUT) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || !matchesShortcut(DEMO_SHORTCUT, event)) return;
      // Not over a dialog (the palette, the shortcut sheet): its keys are its own.
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      opened.current = !useDemoStore.getState().open;
      toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);

  // Opened on demand, the focus goes to the checklist; closed, back to the button that opens it.
  useEffect(() => {
    if (open && opened.current) panel.current?.focus();
    opened.current = false;
  }, [open]);

  const close = () => {
    hide();
    launcher.current?.focus();
  };

  return (
    <>
      <button
        ref={launcher}
        type="button"
        className={styles.launcher}
        aria-expanded={open}
        aria-controls="guided-demo"
        aria-keyshortcuts={DEMO_SHORTCUT?.keys[0]?.toUpperCase()}
        title={`The guided demo (${DEMO_SHORTCUT?.keys[0]?.toUpperCase() ?? ''})`}
        onClick={() => {
          opened.current = !open;
          toggle();
        }}
      >
        <span aria-hidden="true">▶</span>
        <span className={styles.launcherLabel}>Guided demo</span>
      </button>
      {open &&
        createPortal(
          <aside
            id="guided-demo"
            ref={panel}
            className={styles.panel}
            aria-labelledby="guided-demo-title"
            tabIndex={-1}
            onKeyDown={(event) => {
              if (event.key === 'Escape' && !event.defaultPrevented) {
                event.preventDefault();
                close();
              }
            }}
          >
            <header className={styles.head}>
              <h2 id="guided-demo-title">Guided demo</h2>
              <button type="button" className="icon-button" aria-label="Close the guided demo" onClick={close}>
                ✕
              </button>
            </header>
            <DemoChecklist />
          </aside>,
          document.body,
        )}
    </>
  );
}
