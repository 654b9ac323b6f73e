/**
 * Below 1600 px the open checklist floats over the area's lower right (AppShell.module.css), and
 * what the last step makes (its 503 rule, with the hits counting up) sat under it at 1024 px: the
 * presenter had to fold the checklist to show the one thing the step is about. So how much of the
 * area's foot the checklist covers is told to the CSS (`--demo-panel-covers`), where the area takes
 * it as room to scroll into at its foot and as its scroll padding, and the rule the step injected
 * is scrolled into view above the checklist once it is listed.
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

/** Frames to look for the injected rule's row: the workbench lists it once its rules are read again. */
const LOOK_FRAMES = 120;
/** How long the row is kept clear while the checklist settles (its step's counts come in and it grows). */
const SETTLE_MS = 2_000;

/**
 * Scrolls the area to the row of fault rule `ruleId` (the workbench's or the Faults area's), once
 * it is there, and again while the checklist grows in the moments after (its step's counts come
 * in); then leaves the scroll to the presenter.
 */
export function useRuleInView(ruleId: string | undefined, panel: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!ruleId) return;
    let frame = 0;
    let handle = 0;
    let observer: ResizeObserver | null = null;
    let stop: ReturnType<typeof setTimeout> | undefined;
    // `nearest`: no scroll where it is in view already; the area's scroll padding keeps it above the checklist.
    const show = (row: Element) => row.scrollIntoView({ block: 'nearest' });
    const look = () => {
      const row = document.querySelector(`main [data-rule-id="${CSS.escape(ruleId)}"]`);
      if (!row) {
        if (frame++ < LOOK_FRAMES) handle = requestAnimationFrame(look);
        return;
      }
      show(row);
      if (!panel.current || typeof ResizeObserver === 'undefined') return;
      // After the cover's own observer (usePanelCover) has told the CSS the new height.
      observer = new ResizeObserver(() => requestAnimationFrame(() => show(row)));
      observer.observe(panel.current);
      stop = setTimeout(() => observer?.disconnect(), SETTLE_MS);
    };
    handle = requestAnimationFrame(look);
    return () => {
      cancelAnimationFrame(handle);
      observer?.disconnect();
      clearTimeout(stop);
    };
  }, [ruleId, panel]);
}
