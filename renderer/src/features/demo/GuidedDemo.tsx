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
import { DEMO_STEPS, useDemoStore } from '../../stores/demo';
import type { Api } from '../../api';
import { useApi } from '../../api/context';
import { useEngineState } from '../../queries/engine-state';
import { usePanelCover } from './clear-of-panel';
import { DemoChecklist } from './DemoChecklist';
import { DEMO_STORM_LABEL } from './demo-api';
import styles from './demo.module.css';

const DEMO_SHORTCUT = SHORTCUTS.find((s) => s.handledBy === 'the guided demo');
/** Where the area keeps clear of the open checklist (AppShell.module.css): no need to fold it there. */
const WIDE_ENOUGH = '(min-width: 1600px)';

export function GuidedDemo() {
  const open = useDemoStore((s) => s.open);
  const toggle = useDemoStore((s) => s.toggle);
  const hide = useDemoStore((s) => s.hide);
  const api = useApi();
  const folded = useDemoStore((s) => s.folded);
  const setFolded = useDemoStore((s) => s.setFolded);
  const done = useDemoStore((s) => Object.keys(s.done).length);
  // Ticks kept in this tab from a run before a restart describe players and rules no longer there.
  const startId = useEngineState().data?.startId;
  const startKnown = useDemoStore((s) => s.startKnown);
  useEffect(() => {
    if (startId) startKnown(startId);
  }, [startId, startKnown]);
  const launcher = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);
  // Opened on demand (its button, D, the palette), the focus goes to the checklist; opened by
  // itself on a first run, the focus stays where the page put it.
  const wasOpen = useRef(open);

  useEffect(() => {
    if (!DEMO_SHORTCUT) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || !matchesShortcut(DEMO_SHORTCUT, event)) return;
      // Not over a dialog (the palette, the shortcut sheet): its keys are its own.
      if (document.querySelector('dialog[open]')) return;
      event.preventDefault();
      if (useDemoStore.getState().open) endDemoStorm(api);
      toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle, api]);

  // Below 1600 px the open checklist covers the area's lower right (AppShell.module.css keeps the
  // area clear of it only where there is width to spare): once the presenter works in the area
  // itself, by pointer or key, it folds to its title line, out of the way (audit). Only the
  // presenter's own input counts: a step that moves the focus into the area does not fold it.
  useEffect(() => {
    if (!open || folded) return;
    const wide = window.matchMedia(WIDE_ENOUGH);
    const onInput = (event: Event) => {
      if (wide.matches || !(event.target instanceof Node)) return;
      if (document.querySelector('main')?.contains(event.target)) setFolded(true);
    };
    document.addEventListener('pointerdown', onInput, true);
    document.addEventListener('keydown', onInput, true);
    return () => {
      document.removeEventListener('pointerdown', onInput, true);
      document.removeEventListener('keydown', onInput, true);
    };
  }, [open, folded, setFolded]);

  // Below 1600 px: room under the area for the checklist to scroll its foot clear of it.
  usePanelCover(panel, open && !folded);

  // Closed, the focus goes back to the button that opens it (close() below).
  const openedByItself = useDemoStore((s) => s.openedByItself);
  useEffect(() => {
    if (open && !wasOpen.current && !openedByItself) panel.current?.focus();
    wasOpen.current = open;
  }, [open, openedByItself]);

  const close = () => {
    endDemoStorm(api);
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
          if (open) endDemoStorm(api);
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
            data-folded={folded}
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
              {folded && (
                <span className="muted">
                  {done} of {DEMO_STEPS.length} done
                </span>
              )}
              <span className={styles.headButtons}>
                <button
                  type="button"
                  className="icon-button"
                  aria-expanded={!folded}
                  aria-controls="guided-demo-steps"
                  aria-label={folded ? 'Show the demo steps' : 'Fold the demo to its title'}
                  title={folded ? 'Show the demo steps' : 'Fold the demo to its title'}
                  onClick={() => setFolded(!folded)}
                >
                  {folded ? '▴' : '▾'}
                </button>
                <button type="button" className="icon-button" aria-label="Close the guided demo" onClick={close}>
                  ✕
                </button>
              </span>
            </header>
            <div id="guided-demo-steps" hidden={folded}>
              <DemoChecklist />
            </div>
          </aside>,
          document.body,
        )}
    </>
  );
}

/**
 * The demo's 503 storm is the demo's: closing the demo ends it. Left on, the next load on any
 * player failed long after the demo, the rule out of sight (audit). Found by its label too: a tab
 * loaded again, or another tab, does not remember the rule it added (audit).
 */
export function endDemoStorm(api: Api): void {
  const { ruleId } = useDemoStore.getState().marks;
  if (ruleId) useDemoStore.getState().mark({ ruleId: undefined });
  void (async () => {
    const rules = await api.call('faults.list', {}).catch(() => []);
    const ids = new Set(rules.filter((rule) => rule.label === DEMO_STORM_LABEL).map((rule) => rule.id));
    if (ruleId) ids.add(ruleId);
    for (const id of ids) await api.call('faults.remove', { id }).catch(() => undefined);
  })();
}
