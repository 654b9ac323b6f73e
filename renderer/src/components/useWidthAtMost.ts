/**
 * Whether an element's content box is at most `px` wide, as a container query on it reads it
 * (`@container (max-width: …px)`), kept as it resizes. For what CSS cannot do at that width:
 * put another part first in the document, not only on screen (`order` moves the box, not the tab
 * order nor what a screen reader reads first; WCAG 2.4.3), so the CSS and the DOM order agree.
 */
import { useLayoutEffect, useState, type RefObject } from 'react';

function contentWidth(element: HTMLElement): number {
  const style = getComputedStyle(element);
  return element.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0);
}

export function useWidthAtMost(ref: RefObject<HTMLElement | null>, px: number): boolean {
  const [atMost, setAtMost] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    // Before the first paint, so that the page does not show one order and then the other.
    setAtMost(contentWidth(element) <= px);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const inline = entry?.contentBoxSize?.[0]?.inlineSize ?? contentWidth(element);
      setAtMost(inline <= px);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, px]);
  return atMost;
}
