/**
 * Below 1600 px the open checklist floats over the area's lower right (AppShell.module.css), and
 * what the last step makes (its 503 rule, with the hits counting up) sat under it at 1024 px: the
 * presenter had to fold the checklist to show the one thing the step is about. So how much of the
 * area's foot the checklist covers is told to the CSS (`--demo-panel-covers`), where the area takes
 * it as room to scroll into at its foot and as its scroll padding, and the rule the step injected
 * is scrolled into view above the checklist once it is listed (`bringRuleClear`).
 */
import { useEffect, type RefObject } from 'react';

const COVERS_VAR = '--demo-panel-covers';

/**
 * Keeps `--demo-panel-covers` on the root at how much of the area's foot the open checklist covers
 * (from its top edge to the area's bottom), and takes it away when it closes or folds.
 */
export function usePanelCover(panel: RefObject<HTMLElement | null>, unfolded: boolean): void {
  useEffect(() => {
    const element = panel.current;
    const area = document.querySelector('main');
    const root = document.documentElement;
    if (!element || !area || !unfolded || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const covers = area.getBoundingClientRect().bottom - element.getBoundingClientRect().top;
      root.style.setProperty(COVERS_VAR, `${Math.max(0, Math.ceil(covers))}px`);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    observer.observe(area);
    return () => {
      observer.disconnect();
      root.style.removeProperty(COVERS_VAR);
    };
  }, [panel, unfolded]);
}

/** Below this the checklist floats over the area (AppShell.module.css keeps the area clear of it from 1600 px). */
const NARROW = '(max-width: 1599px)';
/** How long to look for the injected rule's row: the workbench lists it once its rules are read again. */
const LOOK_MS = 3_000;
/**
 * How long the row is kept clear while the page settles: the checklist grows as its step's counts
 * come in, and the requests listed above the rule grow with each retry (the third comes 20 s in).
 */
const SETTLE_MS = 30_000;
/** The presenter's own scrolling ends the settling at once: from then on the scroll is theirs. */
const PRESENTER_INPUT = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Once, for the rule the last step just injected: scrolls the area to its row (the workbench's,
 * or the Faults area's) above the checklist, and again while the checklist or the page grows in
 * the half minute after, until the presenter scrolls, types or clicks in the area. Not on a
 * reload or an unfold: then the presenter decides where the area is.
 */
export function bringRuleClear(ruleId: string): void {
  if (!window.matchMedia(NARROW).matches) return;
  const area = document.querySelector('main');
  const panel = document.getElementById('guided-demo');
  if (!area) return;
  const lookUntil = performance.now() + LOOK_MS;
  let frame = 0;
  let observer: ResizeObserver | null = null;
  const end = () => {
    cancelAnimationFrame(frame);
    observer?.disconnect();
    for (const type of PRESENTER_INPUT) area.removeEventListener(type, end, true);
  };
  for (const type of PRESENTER_INPUT) area.addEventListener(type, end, { capture: true, passive: true });
  // `nearest`: no scroll where it is in view already; the area's scroll padding keeps it above the checklist.
  const show = (row: Element) => row.scrollIntoView({ block: 'nearest' });
  const look = () => {
    const row = area.querySelector(`[data-rule-id="${CSS.escape(ruleId)}"]`);
    if (!row) {
      if (performance.now() < lookUntil) frame = requestAnimationFrame(look);
      else end();
      return;
    }
    show(row);
    if (!panel || typeof ResizeObserver === 'undefined') return end();
    // In the frame after the cover's own observer (usePanelCover) told the CSS the new height.
    observer = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => show(row));
    });
    observer.observe(panel);
    // The page grows above the rule too (the requests panel takes each retry's row).
    if (area.firstElementChild) observer.observe(area.firstElementChild);
    setTimeout(end, SETTLE_MS);
  };
  frame = requestAnimationFrame(look);
}
